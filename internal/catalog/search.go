package catalog

import (
	"fmt"
	"strings"

	"catalog/internal/fold"
)

// SearchText is what a search matches in a record (contract 2 and 11):
// the title folded (fold.String), then for a movie its id_code folded,
// then, when the title has Chinese characters, its full pinyin and its
// initials, each in an alphabet of its own (fold.FullKey,
// fold.InitialsKey) so that only the pinyin fallback (PinyinTerms)
// reaches them. The parts are apart by a line break: a term never holds
// white space, so it matches inside one part. Stores keep SearchText
// beside the title (title_fold, name_fold) and the index matches terms
// against it by substring. A change to what it makes must come with a
// new fold.Version: migrate then refolds the stored text and index
// files of the old text are rebuilt.
func SearchText(title, code string) string {
	t := fold.String(title)
	full, initials := fold.Pinyin(t)
	if code == "" && full == "" {
		return t
	}
	var b strings.Builder
	b.WriteString(t)
	if code != "" {
		b.WriteByte('\n')
		b.WriteString(fold.String(code))
	}
	if full != "" {
		b.WriteByte('\n')
		b.WriteString(fold.FullKey(full))
		b.WriteByte('\n')
		b.WriteString(fold.InitialsKey(initials))
	}
	return b.String()
}

// TextMatches reports whether the search text text (SearchText) holds
// every term (none: every text matches), the one definition of a
// search match.
func TextMatches(text string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}

// SearchTerms folds q (fold.String) and splits it on white space into
// terms, all of which must occur in a matching record's SearchText.
// Only spaces gives no terms (no filter). Duplicate terms are dropped (a
// set, so linear in the number of words). q must come from a trusted
// source or have passed ParseSearch, which bounds it.
func SearchTerms(q string) []string {
	fields := strings.Fields(fold.String(q))
	if len(fields) == 0 {
		return nil
	}
	terms := make([]string, 0, len(fields))
	seen := make(map[string]struct{}, len(fields))
	for _, t := range fields {
		if _, ok := seen[t]; !ok {
			seen[t] = struct{}{}
			terms = append(terms, t)
		}
	}
	return terms
}

// PinyinTerms are the two steps of the pinyin fallback (contract 2) for
// terms that matched no record: the terms spelled as full pinyin, then
// as initials, in the alphabets SearchText keeps them in. ok is false
// when a term is not Latin letters only: such a query has no fallback.
func PinyinTerms(terms []string) (full, initials []string, ok bool) {
	if len(terms) == 0 {
		return nil, nil, false
	}
	for _, t := range terms {
		if !fold.LatinWord(t) {
			return nil, nil, false
		}
	}
	full = make([]string, len(terms))
	initials = make([]string, len(terms))
	for i, t := range terms {
		full[i], initials[i] = fold.FullKey(t), fold.InitialsKey(t)
	}
	return full, initials, true
}

// Refolded is what a store's migration did to bring the stored search
// text (title_fold, name_fold) to the current fold (contract 11):
// every record's SearchText made again, the ones that differ rewritten.
type Refolded struct {
	Fold                  int // the fold version the text is now of (fold.Version)
	Clips, ClipsChanged   int64
	Movies, MoviesChanged int64
}

// String is the line catalog migrate prints after "applied".
func (r Refolded) String() string {
	return fmt.Sprintf("search text refolded to fold version %d: %d of %d clips and %d of %d movies changed",
		r.Fold, r.ClipsChanged, r.Clips, r.MoviesChanged, r.Movies)
}
