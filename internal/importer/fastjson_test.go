package importer

import (
	"reflect"
	"testing"
)

// TestFastObjectMatchesGeneral checks that the fast decoder gives the
// general decoder's record whenever it accepts an input, that it accepts
// the usual record shapes, and that it leaves every input the general
// path treats differently (duplicate names keep the last, other value
// kinds, errors with their messages) to the general path.
func TestFastObjectMatchesGeneral(t *testing.T) {
	tests := []struct {
		name string
		in   string
		fast bool // whether the fast path must accept it
	}{
		{"empty", `{}`, true},
		{"spaced empty", " {\t\r\n} ", true},
		{"typical", `{"name": "Quiet Ocean 1", "year": "2001", "actor": ["Ann Lee", "Bo Kim"], "director": "Sam Roe", "id_code": "IMP-1"}`, true},
		{"compact", `{"name":"a","genre":[],"x":null,"y":2019}`, true},
		{"unsorted keys", `{"z": "1", "a": "2", "m": ["3"]}`, true},
		{"Thai and CJK", `{"name": "ภาพยนตร์ 東京物語", "actor": ["นักแสดง"]}`, true},
		{"short escapes", `{"name": "a\"b\\c\/d\ne\tf\rg\bh\fi", "list": ["x\"y", "\\"]}`, true},
		{"numbers", `{"a": 0, "b": -1, "c": 12.5, "d": 1e9, "e": -0.5E-3, "f": 2E+2}`, true},
		{"unicode escape", `{"name": "caf\u00e9"}`, true},
		{"surrogate escape", `{"name": "\ud83d\ude00"}`, true},
		{"invalid UTF-8", "{\"name\": \"a\xffb\"}", false},
		{"invalid UTF-8 key", "{\"n\xff\": \"a\"}", false},
		{"control character", "{\"name\": \"a\x01b\"}", false},
		{"duplicate key", `{"name": "a", "name": "b"}`, false},
		{"bool", `{"name": true}`, false},
		{"nested object", `{"name": {"x": 1}}`, false},
		{"array of numbers", `{"actor": [1, 2]}`, false},
		{"array with null", `{"actor": ["a", null]}`, false},
		{"leading zero", `{"id": 012}`, false},
		{"bare minus", `{"id": -}`, false},
		{"dot without digits", `{"id": 1.}`, false},
		{"exponent without digits", `{"id": 1e}`, false},
		{"nul", `{"id": nul}`, false},
		{"trailing comma", `{"name": "a",}`, false},
		{"trailing data", `{"name": "a"} x`, false},
		{"two objects", `{"name": "a"}{"name": "b"}`, false},
		{"unclosed", `{"name": "a"`, false},
		{"unclosed string", `{"name": "a}`, false},
		{"array", `["a"]`, false},
		{"string", `"a"`, false},
		{"null", `null`, false},
		{"missing colon", `{"name" "a"}`, false},
		{"bad escape", `{"name": "a\qb"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := fastObject(7, []byte(tt.in))
			if ok != tt.fast {
				t.Fatalf("fastObject(%q) accepted: got %v, want %v", tt.in, ok, tt.fast)
			}
			if !ok {
				return
			}
			if want := generalObject(7, []byte(tt.in)); !reflect.DeepEqual(got, want) {
				t.Fatalf("fastObject(%q):\n got %#v\nwant %#v", tt.in, got, want)
			}
		})
	}
}

// FuzzFastObject looks for inputs on which the two decoders disagree.
func FuzzFastObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"name": "a\"b", "actor": ["x", "y"], "year": 2019, "z": null}`, `{"a": -0.5e+3}`,
		`{"episodes": [ {"server_name": "Main", "server_data": [ {"name": "Ep 1"} ]} , {"x": []} ]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := fastObject(1, b)
		if !ok {
			return
		}
		if want := generalObject(1, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("fastObject(%q):\n got %#v\nwant %#v", b, got, want)
		}
	})
}

func BenchmarkFastObject(b *testing.B) {
	in := []byte(`{"name":"River Night Quiet 12","year":"2012","poster1_url":"https://example.com/p/12-l.jpg","poster2_url":"https://example.com/p/12-p.jpg","categories":["Drama","Travel"],"actor":["Ann Lee","Bo Kim"],"director":"Sam Roe","studio":["North Studio"],"genre":["Drama"],"country":["Thailand"],"synopsis":"A short story about River Night Quiet 12","id_code":"IMP-000012","release":"2012-04-13","link_embed":"https://player.example.com/e/12"}`)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, ok := fastObject(1, in); !ok {
			b.Fatal("not accepted")
		}
	}
}

func BenchmarkGeneralObject(b *testing.B) {
	in := []byte(`{"name":"River Night Quiet 12","year":"2012","poster1_url":"https://example.com/p/12-l.jpg","poster2_url":"https://example.com/p/12-p.jpg","categories":["Drama","Travel"],"actor":["Ann Lee","Bo Kim"],"director":"Sam Roe","studio":["North Studio"],"genre":["Drama"],"country":["Thailand"],"synopsis":"A short story about River Night Quiet 12","id_code":"IMP-000012","release":"2012-04-13","link_embed":"https://player.example.com/e/12"}`)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		generalObject(1, in)
	}
}
