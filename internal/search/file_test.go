package search

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// TestFileAnswersLikeTheIndex writes an index to its file and opens it
// again: the index read from the file (lists and titles mapped) answers
// every search exactly as the index it was written from, and as a brute
// force over the records, through rounds of the same changes applied to
// both (which copy mapped lists, titles and doc pages to the heap), and
// after a second round trip of a file written from such a mixed index.
func TestFileAnswersLikeTheIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	groups := []string{"", "JAV", "ทวิต"}
	docs := map[int64]Doc{}
	var initial []Doc
	for id := int64(1); id <= 600; id++ {
		d := Doc{ID: id, Fold: catalog.Fold(randomTitle(rng)), Group: groups[rng.IntN(3)]}
		docs[id] = d
		initial = append(initial, d)
	}
	// A sparse high id: a doc table page of its own.
	docs[1<<31] = Doc{ID: 1 << 31, Fold: "far away", Group: "JAV"}
	initial = append(initial, docs[1<<31])
	fresh := build(initial)
	path := filepath.Join(t.TempDir(), "clips.index")
	loaded := roundTrip(t, fresh, path)
	for round := range 40 {
		if round == 20 {
			loaded = roundTrip(t, loaded, path)
		}
		for range 40 {
			var terms []string
			for range 1 + rng.IntN(3) {
				terms = append(terms, randomTitle(rng))
			}
			terms = catalog.SearchTerms(strings.Join(terms, " "))
			var group *string
			if rng.IntN(3) == 0 {
				group = &groups[rng.IntN(3)]
			}
			offset, limit := int64(rng.IntN(5)), int64(1+rng.IntN(20))
			want := fresh.Search(terms, group, offset, limit)
			got := loaded.Search(terms, group, offset, limit)
			if got.Total != want.Total || !slices.Equal(got.IDs, want.IDs) {
				t.Fatalf("round %d: %q: from the file %d %v, built %d %v", round, terms, got.Total, got.IDs, want.Total, want.IDs)
			}
			if all := brute(docs, terms, group); int64(len(all)) != want.Total {
				t.Fatalf("round %d: %q: total %d, brute force %d", round, terms, want.Total, len(all))
			}
		}
		var changed []Doc
		var gone []int64
		for range 25 {
			id := int64(1 + rng.IntN(700))
			if rng.IntN(3) == 0 {
				delete(docs, id)
				gone = append(gone, id)
				changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
				continue
			}
			d := Doc{ID: id, Fold: catalog.Fold(randomTitle(rng)), Group: groups[rng.IntN(3)]}
			docs[id] = d
			changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
			changed = append(changed, d)
			gone = slices.DeleteFunc(gone, func(g int64) bool { return g == id })
		}
		fresh.Apply(changed, gone)
		loaded.Apply(changed, gone)
		if loaded.Len() != len(docs) || fresh.Len() != len(docs) {
			t.Fatalf("round %d: Len %d (file) %d (built), want %d", round, loaded.Len(), fresh.Len(), len(docs))
		}
	}
}

func roundTrip(t *testing.T, ix *Index, path string) *Index {
	t.Helper()
	h := FileHeader{Kind: 1, Version: 42, Identity: "sqlite:7"}
	if err := ix.WriteFile(path, h); err != nil {
		t.Fatal(err)
	}
	got, gotH, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if gotH != h {
		t.Fatalf("header %+v, want %+v", gotH, h)
	}
	return got
}

// TestFileRefusedWhenDamaged: a file cut anywhere, with any one byte
// changed, or of another format is refused as a bad file, never opened.
func TestFileRefusedWhenDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "movies.index")
	if err := build(demoDocs(300)).WriteFile(path, FileHeader{Kind: 2, Version: 9, Identity: "sqlite:1"}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	bad := filepath.Join(dir, "bad.index")
	check := func(what string, b []byte) {
		t.Helper()
		if err := os.WriteFile(bad, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, err := OpenFile(bad); !IsBadFile(err) {
			t.Fatalf("%s: OpenFile err %v, want a refused file", what, err)
		}
	}
	check("empty", nil)
	for _, n := range []int{1, 8, 31, 56, len(good) / 2, len(good) - 24, len(good) - 1} {
		check("cut to "+strconv.Itoa(n)+" bytes", good[:n])
	}
	for k := range 60 {
		b := slices.Clone(good)
		i := rng.IntN(len(b))
		if k < 24 {
			i = len(b) - 24 + k // every byte of the trailer
		}
		b[i] ^= byte(1 + rng.IntN(255))
		check("byte "+strconv.Itoa(i)+" changed", b)
	}
	other := slices.Clone(good)
	other[8] = 1 // format 1 (before the facets), checksum made to match
	fixSum(other)
	check("format 1", other)
}

// fixSum makes b's checksum match its bytes again.
func fixSum(b []byte) {
	sum := crc32.Checksum(b[:len(b)-trailerSize+8], castagnoli)
	binary.LittleEndian.PutUint32(b[len(b)-trailerSize+8:], sum)
}
