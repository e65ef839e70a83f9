package importer

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// fastObject decodes the common shape of a record: one flat JSON object
// whose values are strings, arrays of strings, numbers or null, with
// distinct plain keys. It gives the record objectRecord's general path
// would give, several times faster, and reports false for anything else
// (escapes other than the short ones, invalid UTF-8, other value kinds,
// any syntax error), which then takes the general path and its messages.
func fastObject(line int, b []byte) (record, bool) {
	p := fastParser{b: b}
	if !p.byte('{') {
		return record{}, false
	}
	var members []member
	p.space()
	if !p.byte('}') {
		for {
			p.space()
			name, ok := p.str()
			if !ok {
				return record{}, false
			}
			p.space()
			if !p.byte(':') {
				return record{}, false
			}
			p.space()
			m, ok := p.value(name)
			if !ok {
				return record{}, false
			}
			members = append(members, m)
			p.space()
			if p.byte('}') {
				break
			}
			if !p.byte(',') {
				return record{}, false
			}
		}
	}
	p.space()
	if p.i != len(b) {
		return record{}, false
	}
	slices.SortFunc(members, func(x, y member) int { return strings.Compare(x.name, y.name) })
	for i := 1; i < len(members); i++ {
		if members[i].name == members[i-1].name {
			return record{}, false // the general path keeps the last one
		}
	}
	if members == nil {
		members = []member{}
	}
	return record{line: line, members: members}, true
}

type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) byte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string with at most the short escapes.
func (p *fastParser) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.i
	var buf []byte // nil until an escape is seen
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if buf != nil {
				s = append(buf, s...)
			}
			if !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return "", false
			}
			var r byte
			switch p.b[p.i+1] {
			case '"', '\\', '/':
				r = p.b[p.i+1]
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default: // \u escapes and errors
				return "", false
			}
			buf = append(append(buf, p.b[start:p.i]...), r)
			p.i += 2
			start = p.i
		default:
			p.i++
		}
	}
	return "", false
}

func (p *fastParser) value(name string) (member, bool) {
	if p.i >= len(p.b) {
		return member{}, false
	}
	m := member{name: name}
	switch c := p.b[p.i]; {
	case c == '"':
		s, ok := p.str()
		m.kind, m.text = kindString, s
		return m, ok
	case c == '[':
		p.i++
		m.kind, m.list = kindList, []string{}
		p.space()
		if p.byte(']') {
			return m, true
		}
		for {
			p.space()
			s, ok := p.str()
			if !ok {
				return member{}, false
			}
			m.list = append(m.list, s)
			p.space()
			if p.byte(']') {
				return m, true
			}
			if !p.byte(',') {
				return member{}, false
			}
		}
	case c == 'n':
		if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
			p.i += 4
			m.kind = kindNull
			return m, true
		}
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		if !p.number() {
			return member{}, false
		}
		m.kind, m.text = kindNumber, string(p.b[start:p.i])
		return m, true
	}
	return member{}, false
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *fastParser) number() bool {
	p.byte('-')
	switch {
	case p.byte('0'):
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		p.digits()
	default:
		return false
	}
	if p.byte('.') && !p.digits() {
		return false
	}
	if p.byte('e') || p.byte('E') {
		if !p.byte('+') {
			p.byte('-')
		}
		if !p.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (p *fastParser) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}
