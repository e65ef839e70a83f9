package catalog

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// DefaultPlatforms returns the five platform values the contract spells
// out (contract 3.2); the other nine are third-party names the operator
// supplies with --platforms. It is a function, not a variable, so that no
// caller can change the defaults of every other: each call returns a
// fresh slice.
func DefaultPlatforms() []string {
	return []string{"JAV", "JAVJAV", "JAVJAVJAV", "คลิปหลุด", "ทวิต"}
}

// Platforms is the configured platform enumeration, in configured order.
type Platforms struct {
	list []string
	set  map[string]struct{}
}

// NewPlatforms builds the enumeration from values (NFC-normalised,
// trimmed). Empty and duplicate values are an error.
func NewPlatforms(values []string) (*Platforms, error) {
	p := &Platforms{set: make(map[string]struct{}, len(values))}
	for _, v := range values {
		v = norm.NFC.String(strings.TrimSpace(v))
		if v == "" {
			return nil, Errorf(EINVALID, "platforms: empty value in list")
		}
		if _, dup := p.set[v]; dup {
			return nil, Errorf(EINVALID, "platforms: %q listed twice", v)
		}
		p.set[v] = struct{}{}
		p.list = append(p.list, v)
	}
	if len(p.list) == 0 {
		return nil, Errorf(EINVALID, "platforms: the list is empty")
	}
	return p, nil
}

// ParsePlatforms parses the comma-separated --platforms value.
func ParsePlatforms(csv string) (*Platforms, error) {
	return NewPlatforms(strings.Split(csv, ","))
}

// Normalize returns the canonical form of v and whether it is a member.
// Comparison is exact after NFC normalisation.
func (p *Platforms) Normalize(v string) (string, bool) {
	v = norm.NFC.String(v)
	_, ok := p.set[v]
	return v, ok
}

// List returns the values in configured order. Callers must not modify it.
func (p *Platforms) List() []string { return p.list }

// Allowed is the human-readable list used in error messages.
func (p *Platforms) Allowed() string { return strings.Join(p.list, ", ") }
