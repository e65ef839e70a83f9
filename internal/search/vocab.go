package search

import (
	"strings"
	"unicode"

	"github.com/RoaringBitmap/roaring/v2"
)

// A search term never contains white space (catalog.SearchTerms splits
// on it), so wherever a title contains a term, the term lies inside one
// of the title's words (its runs of non-space runes). The ids of the
// titles holding a word that contains the term are therefore matches
// without reading a title: a term of four runes or more is answered by
// scanning the words, which are few, instead of verifying every title
// its trigrams point to, which at ten million titles takes up to a
// second for a common word.
//
// The vocabulary is only an accelerator: it may hold any subset of the
// words (it is bounded, and rare words are left out), because a search
// still verifies the candidates that no known word accounts for.

const (
	// maxVocabulary bounds the words kept (about 150 bytes each): a
	// catalog whose titles are mostly unique words (Thai, written without
	// spaces) gains nothing from them, and must not pay for them.
	maxVocabulary = 1 << 16
	// minVocabRunes is the shortest word kept: only terms longer than a
	// gram (three runes) are answered from words, and a word shorter than
	// the term cannot contain it.
	minVocabRunes = 4
	// minWordTitles is the fewest titles a word must be in to stay after
	// a build: verifying a handful of titles costs less than the word.
	minWordTitles = 64
)

// vocabulary maps the words of the titles (folded, at least
// minVocabRunes runes) to the ids of the titles holding them. It is
// changed under the index's write lock and read under its read lock.
type vocabulary struct {
	max   int
	words setMap[string]
}

func newVocabulary(max int) *vocabulary {
	return &vocabulary{max: max, words: newSetMap[string]()}
}

// eachWord calls fn with every word of the title's line of fold (the
// first) of at least minVocabRunes runes (repeats included). The lines
// after it (a movie's code, a title's pinyin: catalog.SearchText) are
// left out: codes are unique, and would take the room of the common
// words during a build only to be dropped at its end.
func eachWord(fold string, fn func(string)) {
	fold, _, _ = strings.Cut(fold, "\n")
	start, runes := -1, 0
	for i, r := range fold {
		if unicode.IsSpace(r) {
			if start >= 0 && runes >= minVocabRunes {
				fn(fold[start:i])
			}
			start, runes = -1, 0
			continue
		}
		if start < 0 {
			start = i
		}
		runes++
	}
	if start >= 0 && runes >= minVocabRunes {
		fn(fold[start:])
	}
}

// add notes id's title fold; a new word is kept while there is room.
func (v *vocabulary) add(id uint32, fold string) {
	eachWord(fold, func(w string) {
		b, ok := v.words.top[w]
		if !ok {
			if v.words.get(w) == nil && v.words.size() >= v.max {
				return
			}
			b = v.words.forWrite(strings.Clone(w), nil)
		}
		b.Add(id)
	})
}

// remove forgets id, whose title was fold.
func (v *vocabulary) remove(id uint32, fold string) {
	eachWord(fold, func(w string) {
		if v.words.get(w) == nil {
			return
		}
		if _, ok := v.words.top[w]; !ok {
			w = strings.Clone(w)
		}
		v.words.forWrite(w, nil).Remove(id)
		v.words.dropEmpty(w, false)
	})
}

// settle drops the rare words after a build and compresses the rest
// (a build's sets are all on top).
func (v *vocabulary) settle() {
	for w, b := range v.words.top {
		if b.GetCardinality() < minWordTitles {
			delete(v.words.top, w)
		}
	}
	v.words.settle()
}

// containing returns a new set of the ids whose titles hold a known word
// containing term: every one a match, though not every match need be
// in it.
func (v *vocabulary) containing(term string) *roaring.Bitmap {
	var sets []*roaring.Bitmap
	v.words.each(func(w string, b *roaring.Bitmap) {
		if !b.IsEmpty() && strings.Contains(w, term) {
			sets = append(sets, b)
		}
	})
	switch len(sets) {
	case 0:
		return roaring.New()
	case 1:
		return sets[0].Clone()
	}
	return roaring.FastOr(sets...)
}

// bytes is roughly the memory the vocabulary holds.
func (v *vocabulary) bytes() int64 {
	var n int64
	v.words.each(func(w string, b *roaring.Bitmap) { n += int64(len(w)) + int64(b.GetSizeInBytes()) + 64 })
	return n
}
