// Package fold is the one folding of text for search (contract section
// 11). A title and a query are folded the same way and matched by
// substring, so case, width, accents, traditional and simplified Chinese
// and the two kana do not matter. Every search of both services folds
// with String; titles with Chinese characters also keep their pinyin
// (Pinyin) for the fallback of section 2.
//
// Version names the fold: stored folded text and index files made with
// another version are refolded or rebuilt, never matched against this one.
package fold

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Version changes whenever String or Pinyin gives another answer for
// some text. Version 1 was NFC and case folding only.
const Version = 2

// casers holds case folders: a cases.Caser keeps state and must not be
// shared between goroutines, and making one per call costs an allocation.
var casers = sync.Pool{New: func() any { c := cases.Fold(); return &c }}

// String folds s for search, in the order of contract section 11:
//
//  1. NFKC (full-width and compatibility forms become plain ones);
//  2. case folding;
//  3. canonical decomposition, the combining marks after a Latin, Greek
//     or Cyrillic letter removed (those of other scripts kept), NFC again,
//     and đ, ø, ł, ß, æ, œ spelled d, o, l, ss, ae, oe;
//  4. traditional Chinese characters to simplified (OpenCC's table);
//  5. katakana to hiragana.
//
// String is idempotent: String(String(s)) == String(s). Text that is all
// ASCII costs one pass, and no allocation when it has no capital letter;
// text of the scripts whose fold needs no normalization costs one pass
// too (plain).
func String(s string) string {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			if f, ok := plain(s); ok {
				return f
			}
			return slow(s)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return s
	}
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

// plain folds s in one pass when every rune is one whose fold is a
// copy or a table lookup: ASCII, Thai (but marks after a Latin letter,
// which go), kana without a separate
// voicing mark, the Chinese characters of the two main blocks, and
// Hangul syllables, with Thai's reordering marks already in canonical
// order. Most titles of the catalogs this serves are such text, and it
// is several times cheaper than slow, whose result it equals (the fuzz
// target checks). ok is false for any other text.
func plain(s string) (f string, ok bool) {
	var b strings.Builder
	b.Grow(len(s))
	latin := false // the last rune was an ASCII letter
	lastCCC := uint8(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			latin = 'a' <= c && c <= 'z'
			lastCCC = 0
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		var ccc uint8
		switch {
		case r == 0x0E33: // sara am, which NFKC spells as nikhahit and sara aa
			if latin {
				return "", false // the nikhahit, a mark, would go
			}
			b.WriteString("\u0e4d\u0e32")
		case 0x0E01 <= r && r <= 0x0E5B: // Thai
			if r >= 0x0E31 {
				if latin && unicode.Is(unicode.Mn, r) {
					return "", false
				}
				ccc = norm.NFC.PropertiesString(s[i:]).CCC()
				if ccc != 0 && ccc < lastCCC {
					return "", false // NFKC would reorder the marks
				}
			}
			b.WriteString(s[i : i+n])
		case 0x3041 <= r && r <= 0x3096, r == 0x309D, r == 0x309E, r == 0x30FB, r == 0x30FC, 0xAC00 <= r && r <= 0xD7A3:
			b.WriteString(s[i : i+n]) // hiragana, the middle dot, the prolonged sound mark, Hangul
		case 0x30A1 <= r && r <= 0x30F6, r == 0x30FD, r == 0x30FE:
			b.WriteRune(r - ('ァ' - 'ぁ'))
		case 0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= lastDense:
			b.WriteRune(simplified(r))
		default:
			return "", false
		}
		latin, lastCCC = false, ccc
		i += n
	}
	return b.String(), true
}

// slow folds text that is not all ASCII. After NFKC and case folding,
// one pass decomposes only the Latin, Greek and Cyrillic letters (the
// only ones whose marks go), so text in other scripts is copied rune by
// rune; the closing NFC is then a check that finds nothing to do, except
// where case folding left a sequence to compose.
func slow(s string) string {
	s = norm.NFKC.String(s)
	c := casers.Get().(*cases.Caser)
	s = c.String(s)
	casers.Put(c)

	var b strings.Builder
	b.Grow(len(s) + 8)
	strip := false // the last letter was Latin, Greek or Cyrillic
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if r < utf8.RuneSelf {
			strip = 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
			b.WriteByte(byte(r))
			i += n
			continue
		}
		if strip && unicode.Is(unicode.M, r) {
			i += n
			continue
		}
		// A mark that follows no Latin, Greek or Cyrillic letter is no
		// letter either: it leaves strip false and is copied below.
		strip = stripsMarks(r)
		if strip {
			// The canonical decomposition of a letter is its base letter
			// and then marks, which go.
			if d := norm.NFD.PropertiesString(s[i:]).Decomposition(); d != nil {
				r, _ = utf8.DecodeRune(d)
			}
		}
		i += n
		switch {
		case r == 'đ':
			b.WriteByte('d')
		case r == 'ø':
			b.WriteByte('o')
		case r == 'ł':
			b.WriteByte('l')
		case r == 'ß':
			b.WriteString("ss")
		case r == 'æ':
			b.WriteString("ae")
		case r == 'œ':
			b.WriteString("oe")
		case 'ァ' <= r && r <= 'ヶ', r == 'ヽ', r == 'ヾ':
			b.WriteRune(r - ('ァ' - 'ぁ'))
		case 'ヷ' <= r && r <= 'ヺ':
			// ワ, ヰ, ヱ, ヲ with the voicing mark, which hiragana only
			// spells as two characters.
			b.WriteRune(katakanaVoiced[r-'ヷ'])
			b.WriteRune('\u3099')
		case 0xAB70 <= r && r <= 0xABBF, 0x13F8 <= r && r <= 0x13FD:
			// Unicode folds Cherokee to its capitals; x/text's cases.Fold
			// swaps the two cases instead, which is not idempotent.
			b.WriteRune(cherokeeCapital(r))
		case r >= firstHan:
			b.WriteRune(simplified(r))
		default:
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// katakanaVoiced holds the hiragana of ヷ, ヸ, ヹ, ヺ without their mark.
var katakanaVoiced = [...]rune{'わ', 'ゐ', 'ゑ', 'を'}

// stripsMarks reports whether r is a letter of the Latin, Greek or
// Cyrillic script, whose combining marks the fold removes.
func stripsMarks(r rune) bool {
	switch {
	case r < 0x250: // ASCII, Latin-1, Latin Extended-A and -B
		return unicode.IsLetter(r)
	case 0x530 <= r && r < 0x1C80, 0x3000 <= r && r < 0xA640, 0xAC00 <= r && r < 0x1D000:
		// From Armenian to Mongolian, and from CJK to Hangul and on:
		// blocks without a Latin, Greek or Cyrillic letter.
		return false
	}
	return unicode.IsLetter(r) && (unicode.Is(unicode.Latin, r) || unicode.Is(unicode.Greek, r) || unicode.Is(unicode.Cyrillic, r))
}

// cherokeeCapital is the capital of a small Cherokee letter.
func cherokeeCapital(r rune) rune {
	if r >= 0xAB70 {
		return r - 0xAB70 + 0x13A0
	}
	return r - 8 // U+13F8..U+13FD
}
