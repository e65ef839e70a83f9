package catalog_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"catalog/internal/catalog"
)

var jsonStringCases = []string{
	"",
	"plain ascii",
	`quote " and backslash \ and slash /`,
	"\x00\x01\x07\x08\x0c\x1f",
	"tab\tnewline\ncr\r",
	"\x7f DEL",
	"<script>&amp;</script>",
	"U+2028 \u2028 U+2029 \u2029 U+202A \u202a",
	"Thai คลิปหลุด, CJK 東京, emoji 😀, accents é e\u0301",
	"\xff invalid start",
	"truncated \xe0\xb8",
	"overlong \xc0\xaf",
	"surrogate half \xed\xa0\x80",
	"beyond U+10FFFF \xf4\x90\x80\x80",
	"\uFFFD real replacement char",
	"mixed \x00\xff\"\\\u2028é",
	strings.Repeat("long ", 1000),
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonStringCases {
		got := catalog.AppendJSONString(nil, s)
		if !json.Valid(got) {
			t.Errorf("AppendJSONString(%q) = %s, not valid JSON", s, got)
			continue
		}
		var fromOurs, fromStd string
		if err := json.Unmarshal(got, &fromOurs); err != nil {
			t.Fatal(err)
		}
		std, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(std, &fromStd); err != nil {
			t.Fatal(err)
		}
		// Both replace each invalid byte with U+FFFD, so the decoded
		// strings must agree exactly.
		if fromOurs != fromStd {
			t.Errorf("AppendJSONString(%q) decodes to %q, encoding/json gives %q", s, fromOurs, fromStd)
		}
		for _, raw := range []string{"\u2028", "\u2029"} {
			if strings.Contains(string(got), raw) {
				t.Errorf("AppendJSONString(%q) = %s leaves %q unescaped", s, got, raw)
			}
		}
	}
}

func TestAppendJSONStringExact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\n\r\t", `"\n\r\t"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"a\xffb", `"a\ufffdb"`},
		{"คลิป", `"คลิป"`},
	}
	for _, tt := range tests {
		if got := string(catalog.AppendJSONString([]byte("x"), tt.in)); got != "x"+tt.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", tt.in, got, "x"+tt.want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := catalog.AppendJSONString(nil, s)
		if !json.Valid(got) {
			t.Fatalf("AppendJSONString(%q) = %s, not valid JSON", s, got)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
		if !utf8.ValidString(s) && back != strings.ToValidUTF8(s, "\uFFFD") && !validReplacement(s, back) {
			t.Fatalf("invalid input %q decoded to %q", s, back)
		}
	})
}

// validReplacement reports whether back is s with every invalid byte
// replaced by U+FFFD (strings.ToValidUTF8 merges runs, the encoder does
// not, and both are fine JSON).
func validReplacement(s, back string) bool {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r) // RuneError for an invalid byte
		i += size
	}
	return b.String() == back
}
