package catalog

import (
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Fold is the one case-folding used for search: NFC, then Unicode case
// folding. Stores keep Fold(title) beside the title and match folded
// terms against it by substring, so both sides agree on every script.
func Fold(s string) string {
	return cases.Fold().String(norm.NFC.String(s))
}

// TitleMatches reports whether title contains every folded term (none:
// every title matches), the one definition of a search match.
func TitleMatches(title string, terms []string) bool {
	if len(terms) == 0 {
		return true
	}
	fold := Fold(title)
	for _, t := range terms {
		if !strings.Contains(fold, t) {
			return false
		}
	}
	return true
}

// SearchTerms splits q on white space into folded terms, all of which
// must occur in a matching title. Only spaces gives no terms (no filter).
// Duplicate terms are dropped (a set, so linear in the number of words).
// q must come from a trusted source or have passed ParseSearch, which
// bounds it.
func SearchTerms(q string) []string {
	fields := strings.Fields(q)
	if len(fields) == 0 {
		return nil
	}
	terms := make([]string, 0, len(fields))
	seen := make(map[string]struct{}, len(fields))
	for _, f := range fields {
		t := Fold(f)
		if _, ok := seen[t]; !ok {
			seen[t] = struct{}{}
			terms = append(terms, t)
		}
	}
	return terms
}

// MinIndexedTerm is the shortest term (in runes) a trigram index can
// serve; shorter terms are matched by scanning the folded titles.
const MinIndexedTerm = 3
