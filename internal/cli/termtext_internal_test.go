package cli

import "testing"

// Finding 9 of issue 35: a stranger's text printed on the operator's
// terminal loses its escape sequences whole, its control characters and
// its bidirectional overrides.
func TestTermText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ไทย, 中文":                      "plain text, ไทย, 中文",
		"\x1b]0;PWNED\x07\x1b[31mred\x1b[0m":       "red",
		"title \x1b]2;x\x1b\\ after":               "title  after",
		"bell\x07 and nul\x00":                     "bell and nul",
		"c1 \u009b31m csi and \u009d0;t\u009c osc": "c1  csi and  osc",
		"clear \x1bc screen \x1b(B charset":        "clear  screen  charset",
		"dcs \x1bP1$r\x1b\\ end":                   "dcs  end",
		"abc\u202egnp.exe":                         "abcgnp.exe",
		"iso\u2066late\u2069":                      "isolate",
		"line\nbreak\ttab":                         "line\nbreak\ttab",
		"bad \xff byte":                            "bad \uFFFD byte",
		"cut \x1b[":                                "cut ",
		"esc at end \x1b":                          "esc at end ",
		"broken \x1b[31\nnext":                     "broken \nnext",
	} {
		if got := termText(in); got != want {
			t.Errorf("termText(%q): got %q, want %q", in, got, want)
		}
	}
}

func FuzzTermText(f *testing.F) {
	for _, s := range []string{"\x1b]0;PWNED\x07\x1b[31m", "\u009b1m", "a\u202eb", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := termText(s)
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("termText(%q) = %q keeps %U", s, out, r)
			}
		}
		if termText(out) != out {
			t.Fatalf("termText is not stable on %q", s)
		}
	})
}
