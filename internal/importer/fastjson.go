package importer

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// flatDecoders reuses jsontext decoders across records: a JSON Lines
// import decodes a million small objects.
var flatDecoders = sync.Pool{New: func() any {
	fd := &flatDecoder{}
	fd.dec = jsontext.NewDecoder(&fd.rd)
	return fd
}}

type flatDecoder struct {
	rd  bytes.Reader
	dec *jsontext.Decoder
}

// fastObject decodes the common shape of a record, one flat JSON object
// whose values are strings, arrays of strings, numbers or null, with
// jsontext's streaming tokenizer: several times faster than decoding
// into a map with encoding/json. It reports false for anything else
// (duplicate names, invalid UTF-8, other value kinds, any syntax error),
// which then takes generalObject and its messages.
func fastObject(line int, b []byte) (record, bool) {
	fd := flatDecoders.Get().(*flatDecoder)
	defer flatDecoders.Put(fd)
	fd.rd.Reset(b)
	fd.dec.Reset(&fd.rd)
	members, ok := flatMembers(fd.dec)
	if !ok {
		return record{}, false
	}
	// The general path reads a map; sorted names give the same record.
	slices.SortFunc(members, func(x, y member) int { return strings.Compare(x.name, y.name) })
	return record{line: line, members: members}, true
}

func flatMembers(dec *jsontext.Decoder) ([]member, bool) {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	members := []member{}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken() // duplicate names are an error here
		if err != nil || name.Kind() != '"' {
			return nil, false
		}
		m := member{name: name.String()}
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		switch tok.Kind() {
		case '"':
			m.kind, m.text = kindString, tok.String()
		case '0':
			m.kind, m.text = kindNumber, tok.String()
		case 'n':
			m.kind = kindNull
		case '[':
			if dec.PeekKind() == '{' {
				raw, ok := objectArray(dec)
				if !ok {
					return nil, false
				}
				m.kind, m.raw = kindRaw, raw
				break
			}
			m.kind, m.list = kindList, []string{}
			for dec.PeekKind() != ']' {
				s, err := dec.ReadToken()
				if err != nil || s.Kind() != '"' {
					return nil, false
				}
				m.list = append(m.list, s.String())
			}
			dec.ReadToken() // the ']' just peeked
		default:
			return nil, false
		}
		members = append(members, m)
	}
	if _, err := dec.ReadToken(); err != nil { // the '}' just peeked
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF { // nothing after the object
		return nil, false
	}
	return members, true
}

// objectArray reads the rest of an array of objects whose '[' has been
// read, and returns the whole array as JSON text.
func objectArray(dec *jsontext.Decoder) ([]byte, bool) {
	raw := []byte{'['}
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil || v.Kind() != '{' {
			return nil, false
		}
		if len(raw) > 1 {
			raw = append(raw, ',')
		}
		raw = append(raw, v...)
	}
	dec.ReadToken() // the ']' just peeked
	return compactJSON(append(raw, ']')), true
}
