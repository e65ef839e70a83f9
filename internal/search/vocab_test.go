package search

import (
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// vocabWords are words that contain one another ("sunset" holds
// "unset"), in three scripts, so a term can match several words.
var vocabWords = []string{"Sunset", "sunsets", "unset", "SUNSETTING", "part", "apart", "ตอนที่", "ตอนที่สอง", "夕暮れの海", "の海です", "Straße", "STRASSE", "e\u0301tude", "étude"}

// vocabSpaces are the white space runes between words: a word ends at
// any of them, as catalog.SearchTerms splits on any of them.
var vocabSpaces = []string{" ", "\u3000", "\t", "\u00a0", "  "}

func wordyTitle(rng *rand.Rand) string {
	var b strings.Builder
	for i := range 1 + rng.IntN(5) {
		if i > 0 {
			b.WriteString(vocabSpaces[rng.IntN(len(vocabSpaces))])
		}
		b.WriteString(vocabWords[rng.IntN(len(vocabWords))])
		if rng.IntN(4) == 0 {
			b.WriteString(alphabet[rng.IntN(len(alphabet))]) // a rarer word
		}
	}
	return b.String()
}

// TestVocabularyMatchesBruteForce checks the answers of terms of four
// runes or more, which the vocabulary answers, against a substring scan,
// through edits and deletes, with a full vocabulary, a tiny one (most
// words unknown: their titles must still be found) and none.
func TestVocabularyMatchesBruteForce(t *testing.T) {
	var terms []string
	for _, w := range vocabWords {
		f := []rune(catalog.SearchText(w, ""))
		for i := 0; i+minVocabRunes <= len(f); i++ {
			terms = append(terms, string(f[i:i+minVocabRunes]), string(f[i:]))
		}
	}
	for _, max := range []int{maxVocabulary, 3, 0} {
		rng := rand.New(rand.NewPCG(7, uint64(max)))
		docs := map[int64]Doc{}
		var initial []Doc
		for id := int64(1); id <= 3000; id++ {
			d := Doc{ID: id, Fold: catalog.SearchText(wordyTitle(rng), "")}
			docs[id] = d
			initial = append(initial, d)
		}
		ix := New()
		ix.vocab = newVocabulary(max)
		next, stop := iter.Pull(slices.Values(initial))
		ix.Build(next)
		stop()
		for round := range 8 {
			if max == maxVocabulary && ix.vocab.words.size() == 0 {
				t.Fatal("the vocabulary kept no word")
			}
			ix.words = newWordCache() // every term read afresh
			for _, term := range terms {
				want := brute(docs, []string{term}, nil)
				got := ix.Find(Query{Terms: []string{term}, Limit: int64(len(want) + 1)})
				if got.Total != int64(len(want)) || !slices.Equal(got.IDs, want) {
					t.Fatalf("vocabulary of %d, round %d: %q: %d ids, want %d", max, round, term, got.Total, len(want))
				}
			}
			var changed []Doc
			var gone []int64
			for range 300 {
				id := int64(1 + rng.IntN(3500))
				if rng.IntN(3) == 0 && !slices.ContainsFunc(changed, func(d Doc) bool { return d.ID == id }) {
					delete(docs, id)
					gone = append(gone, id)
					continue
				}
				if slices.Contains(gone, id) || slices.ContainsFunc(changed, func(d Doc) bool { return d.ID == id }) {
					continue
				}
				d := Doc{ID: id, Fold: catalog.SearchText(wordyTitle(rng), "")}
				docs[id] = d
				changed = append(changed, d)
			}
			ix.Apply(changed, gone)
		}
	}
}
