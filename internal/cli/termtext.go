package cli

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// termText makes text that may come from strangers (a source's record,
// an imported file, a stored run's error) safe to print on a terminal:
// escape sequences are removed whole (CSI such as ESC [ 31 m; OSC such
// as ESC ] 0 ; title BEL; DCS, SOS, PM and APC up to their terminator;
// their 8-bit C1 forms too), then every other control character
// except newline and tab, and the bidirectional overrides and isolates
// (U+202A-U+202E, U+2066-U+2069) that reorder what is shown. Invalid
// UTF-8 becomes U+FFFD.
func termText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == 0x1b && i < len(s):
			i = skipEscape(s, i)
		case r == 0x9b: // CSI
			i = skipCSI(s, i)
		case r == 0x9d, r == 0x90, r == 0x98, r == 0x9e, r == 0x9f: // OSC, DCS, SOS, PM, APC
			i = skipString(s, i)
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case unsafeRune(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r is a control character (newline and tab
// aside) or a bidirectional override or isolate.
func unsafeRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || catalog.IsBidiControl(r)
}

// skipEscape skips the sequence after an ESC at s[i-1].
func skipEscape(s string, i int) int {
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// A two-character sequence (ESC c, ESC 7, ESC ( B ...): the
	// intermediate bytes 0x20-0x2F, then one final character.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// skipCSI skips a control sequence's parameters and intermediates up to
// and including its final byte (0x40-0x7E).
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			break
		}
		if c < 0x20 || c >= 0x7f {
			// Not part of a control sequence: the sequence is broken;
			// what follows is text again.
			return i - 1
		}
	}
	return i
}

// skipString skips an OSC, DCS, SOS, PM or APC string up to its
// terminator: BEL, ESC \ or the 8-bit ST (U+009C).
func skipString(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		if strings.HasPrefix(s[i:], "\u009c") {
			return i + len("\u009c")
		}
		i++
	}
	return i
}
