package catalog

import (
	"strings"
	"unicode/utf8"
)

// Search text limits (contract 2): every q, wd and HTML search box is
// held to them before any folding or database work, so that the cost of
// a search does not grow with what a stranger sends.
const (
	MaxSearchRunes = 256 // characters after trimming
	MaxSearchWords = 16  // distinct words (after folding)
)

// ParseSearch checks the search text q of the query parameter param (q,
// wd) and returns its folded, distinct terms (SearchTerms). Text with a
// control character (U+0000-U+001F, U+007F) or invalid UTF-8, longer
// than MaxSearchRunes after trimming, or with more than MaxSearchWords
// distinct words is an EINVALID error naming param and the limit. The
// work is linear in len(q) and the folding is bounded by the limits.
func ParseSearch(param, q string) ([]string, error) {
	// In valid UTF-8 the bytes below 0x20 and 0x7f stand only for
	// themselves, so a byte scan finds every control character.
	for i := 0; i < len(q); i++ {
		if c := q[i]; c < 0x20 || c == 0x7f {
			return nil, Errorf(EINVALID, "%s must not contain control characters", param)
		}
	}
	if !utf8.ValidString(q) {
		return nil, Errorf(EINVALID, "%s must be valid UTF-8", param)
	}
	q = strings.TrimSpace(q)
	if len(q) > MaxSearchRunes && utf8.RuneCountInString(q) > MaxSearchRunes {
		return nil, Errorf(EINVALID, "%s must be at most %d characters", param, MaxSearchRunes)
	}
	terms := SearchTerms(q)
	if len(terms) > MaxSearchWords {
		return nil, Errorf(EINVALID, "%s must have at most %d distinct words", param, MaxSearchWords)
	}
	return terms, nil
}
