package maccms

import (
	"encoding/xml"
	"testing"
)

// TestXMLText: whatever a value holds, the element parses with
// encoding/xml and gives the value back (U+FFFD for what XML 1.0 cannot
// hold).
func TestXMLText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{`<b>Fish & Chips</b> "q" 'a'`, `<b>Fish & Chips</b> "q" 'a'`},
		{"a]]>b", "a]]>b"},
		{"]]>]]>", "]]>]]>"},
		{"]]]>", "]]]>"},
		{"ภาพยนตร์", "ภาพยนตร์"},
		{"tab\tnl\ncr\r.", "tab\tnl\ncr\r."},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"nul\x00esc\x1b", "nul\uFFFDesc\uFFFD"},
		{"\uFFFE\uFFFF", "\uFFFD\uFFFD"},
	}
	for _, tt := range tests {
		for _, form := range []struct {
			name   string
			append func([]byte, string) []byte
		}{{"text", appendXMLText}, {"cdata", appendCDATA}} {
			doc := append(form.append([]byte(`<x a="`), tt.in), `"><y>`...)
			doc = append(form.append(doc, tt.in), "</y></x>"...)
			if form.name == "cdata" {
				// CDATA cannot go in an attribute; test the element only.
				doc = append(form.append([]byte(`<x a=""><y>`), tt.in), "</y></x>"...)
			}
			var got struct {
				A string `xml:"a,attr"`
				Y string `xml:"y"`
			}
			if err := xml.Unmarshal(doc, &got); err != nil {
				t.Errorf("%s %q: %v in %q", form.name, tt.in, err, doc)
				continue
			}
			want := tt.want
			if form.name == "cdata" {
				// A parser turns a raw CR into LF; only escaped text keeps it.
				want = crToLF(want)
			} else if got.A != tt.want {
				t.Errorf("text %q in an attribute: got %q, want %q", tt.in, got.A, tt.want)
			}
			if got.Y != want {
				t.Errorf("%s %q: got %q, want %q", form.name, tt.in, got.Y, want)
			}
		}
	}
}

func crToLF(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == '\r' {
			b[i] = '\n'
		}
	}
	return string(b)
}
