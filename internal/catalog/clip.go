package catalog

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"
)

// Clip is one video clip record (contract 3.1).
type Clip struct {
	ID        int64
	Title     string
	IframeURL string
	CoverURL  string
	Actor     string
	Studio    string
	Platform  string
	Notes     string
	CreatedAt time.Time // UTC, whole seconds
}

// Field limits for clips (contract 3.5).
const (
	MaxTitleRunes = 300
	MaxNameRunes  = 200 // actor, studio
	MaxNotesRunes = 5000
	MaxClipBody   = 64 << 10
)

// ClipInput is a decoded create or patch body. A nil field was absent.
type ClipInput struct {
	Title, IframeURL, CoverURL, Actor, Studio, Platform, Notes *string
}

// field is the member of in for the field name, nil for an unknown name.
func (in *ClipInput) field(name string) **string {
	for i := range clipSpecs {
		if clipSpecs[i].json == name {
			return clipSpecs[i].input(in)
		}
	}
	return nil
}

// Set sets a field by its JSON name; it reports false for unknown names.
func (in *ClipInput) Set(name, value string) bool {
	f := in.field(name)
	if f == nil {
		return false
	}
	*f = &value
	return true
}

// DecodeClipInput parses a JSON body strictly: it must be one object whose
// members are all known clip fields holding strings (null counts as
// absent). Every problem is reported by field name.
func DecodeClipInput(body []byte) (ClipInput, error) {
	var in ClipInput
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return in, Errorf(EINVALID, "body must be a JSON object")
	}
	// dec.More does not see a stray "}" or "]" after the object, so check
	// that only white space follows it.
	if len(bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")) != 0 {
		return in, Errorf(EINVALID, "body must be a single JSON object")
	}
	fe := FieldErrors{}
	for name, v := range raw {
		f := in.field(name)
		if f == nil {
			fe.Add(name, "is not a known field")
			continue
		}
		if string(v) == "null" {
			continue
		}
		// encoding/json would quietly turn invalid UTF-8 into U+FFFD
		// and store a title the client never sent.
		if !utf8.Valid(v) {
			fe.Add(name, "must be valid UTF-8")
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			fe.Add(name, "must be a string")
			continue
		}
		*f = &s
	}
	return in, fe.Err()
}

// Apply validates in and writes it onto c. With create set, title and
// iframe_url are required; otherwise only present fields change (a
// patch). When the resulting cover_url is empty, it is derived from
// iframe_url. Nothing is written to c unless every field is valid.
func (in ClipInput) Apply(c *Clip, platforms *Platforms, create bool) error {
	next := *c
	fe := FieldErrors{}
	for i := range clipSpecs {
		spec := &clipSpecs[i]
		v := *spec.input(&in)
		// A required field must be given on create, and a patch that
		// gives it must not empty it.
		spec.apply(&next, v, platforms, spec.required && (create || v != nil), fe)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	// An absent or empty cover is derived; on a patch only when the
	// caller touched cover_url or iframe_url, so an uploaded cover stays.
	// A cover that was derived from the old iframe_url shows the old
	// video, so a new iframe_url without a cover derives it again.
	if !create && in.CoverURL == nil && in.IframeURL != nil && c.CoverURL == DeriveCover(c.IframeURL) {
		next.CoverURL = ""
	}
	if next.CoverURL == "" && (create || in.CoverURL != nil || in.IframeURL != nil) {
		next.CoverURL = DeriveCover(next.IframeURL)
	}
	*c = next
	return nil
}

// AppendJSON appends the clip's JSON object (contract 3.1) to b, the
// fields from the clip field table, without reflection: it is on every
// hot path.
func (c *Clip) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendInt(b, c.ID)
	for i := range clipSpecs {
		b = append(b, clipKeys[i]...)
		b = AppendJSONString(b, *clipSpecs[i].text(c))
	}
	b = append(b, `,"created_at":"`...)
	b = c.CreatedAt.UTC().AppendFormat(b, time.RFC3339)
	return append(b, `"}`...)
}

// MarshalJSON makes Clip usable with encoding/json (tests, tools).
func (c Clip) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }
