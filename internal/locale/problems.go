package locale

import (
	"regexp"
	"slices"
	"strings"
)

// The domain (internal/catalog) writes its validation problems in
// English, and the JSON APIs return them as they are. The pages show
// them in the reader's language: every message whose id starts with
// "problem." is, in English, the exact text the domain writes, with
// {{.Name}} where it puts a value. Problem matches a text against those
// patterns and writes the matching message in the page's language with
// the same values. A value named Problem is itself a problem, translated
// in turn ("line 3: link_m3u8 must be ...").

const problemPrefix = "problem."

type problemPattern struct {
	id      string
	re      *regexp.Regexp
	names   []string
	literal int // length of the fixed text: longer patterns are tried first
}

var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)

// problemPatterns builds the patterns from the texts of the source
// language's file.
func (c *Catalog) problemPatterns() []problemPattern {
	var out []problemPattern
	for _, m := range c.messages[Source] {
		if !strings.HasPrefix(m.ID, problemPrefix) {
			continue
		}
		text := m.Other
		p := problemPattern{id: m.ID}
		var b strings.Builder
		b.WriteString("^")
		last := 0
		for _, m := range placeholder.FindAllStringSubmatchIndex(text, -1) {
			lit := text[last:m[0]]
			b.WriteString(regexp.QuoteMeta(lit))
			p.literal += len(lit)
			b.WriteString("(.+?)")
			p.names = append(p.names, text[m[2]:m[3]])
			last = m[1]
		}
		b.WriteString(regexp.QuoteMeta(text[last:]))
		p.literal += len(text) - last
		b.WriteString("$")
		p.re = regexp.MustCompile(b.String())
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b problemPattern) int { return b.literal - a.literal })
	return out
}

// Problem writes a problem of the domain (a field error, an error's
// message) in this language; a text no pattern matches stays as it is.
func (l *Localizer) Problem(text string) string {
	if l.tag == Source || text == "" {
		return text
	}
	for _, p := range l.cat.problems {
		m := p.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		args := make([]any, 0, 2*len(p.names))
		for i, name := range p.names {
			v := m[i+1]
			if name == "Problem" {
				v = l.Problem(v)
			}
			args = append(args, name, v)
		}
		return l.T(p.id, args...)
	}
	return text
}
