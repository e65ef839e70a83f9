package search

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
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
		d := Doc{ID: id, Fold: catalog.SearchText(randomTitle(rng), ""), Group: groups[rng.IntN(3)]}
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
			terms, group := randomSearch(rng, groups)
			offset, limit := int64(rng.IntN(5)), int64(1+rng.IntN(20))
			want := fresh.Find(Query{Terms: terms, Group: group, Offset: offset, Limit: limit})
			got := loaded.Find(Query{Terms: terms, Group: group, Offset: offset, Limit: limit})
			if got.Total != want.Total || !slices.Equal(got.IDs, want.IDs) {
				t.Fatalf("round %d: %q: from the file %d %v, built %d %v", round, terms, got.Total, got.IDs, want.Total, want.IDs)
			}
			if all := brute(docs, terms, group); int64(len(all)) != want.Total {
				t.Fatalf("round %d: %q: total %d, brute force %d", round, terms, want.Total, len(all))
			}
		}
		changed, gone := randomChanges(rng, docs, groups, 25, 700)
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

// TestLogKeepsAMillionVersions: the log is pruned only through versions
// both read by every running instance (aged) and a million versions
// behind the current one, so that a restart hours later catches up
// from its file.
func TestLogKeepsAMillionVersions(t *testing.T) {
	for _, c := range []struct{ aged, current, want int64 }{
		{-1, 5_000_000, -1},               // nothing aged yet
		{4_900_000, 5_000_000, 4_000_000}, // aged, but within the last million
		{2_000_000, 5_000_000, 2_000_000}, // aged and a million behind
		{900, 1_000_500, 500},
		{900, 999_000, -1000}, // younger than a million versions: nothing
	} {
		if got := pruneThrough(c.aged, c.current); got != c.want {
			t.Errorf("pruneThrough(%d, %d) = %d, want %d", c.aged, c.current, got, c.want)
		}
	}
}

// TestStartCatchUpScalesWithTheCatalog: a start applies up to a tenth
// of the catalog from the log (never fewer than 10,000 changes) before
// it prefers a build.
func TestStartCatchUpScalesWithTheCatalog(t *testing.T) {
	for _, c := range []struct{ records, want int }{{0, 10_000}, {50_000, 10_000}, {1_000_000, 100_000}, {10_000_000, 1_000_000}} {
		if got := startCatchUp(c.records); got != c.want {
			t.Errorf("startCatchUp(%d) = %d, want %d", c.records, got, c.want)
		}
	}
}

// TestEmptyIndexFile: an empty catalog's index writes and opens, and
// takes its first records after.
func TestEmptyIndexFile(t *testing.T) {
	ix := roundTrip(t, New(), filepath.Join(t.TempDir(), "movies.index"))
	if r := ix.Find(Query{Limit: 20}); ix.Len() != 0 || r.Total != 0 {
		t.Fatalf("empty index from a file: Len %d, total %d", ix.Len(), r.Total)
	}
	ix.Apply([]Doc{{ID: 7, Fold: "river"}}, nil)
	if r := ix.Find(Query{Terms: []string{"riv"}, Limit: 20}); !slices.Equal(r.IDs, []int64{7}) {
		t.Fatalf("after a first record: %v, want [7]", r.IDs)
	}
}

// TestFileIndexUnderConcurrentChanges: searches run while changes copy
// the mapped lists, titles and pages they touch (run with -race).
func TestFileIndexUnderConcurrentChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	groups := []string{"", "JAV"}
	docs := map[int64]Doc{}
	var initial []Doc
	for id := int64(1); id <= 2000; id++ {
		d := Doc{ID: id, Fold: catalog.SearchText(randomTitle(rng), ""), Group: groups[rng.IntN(2)]}
		docs[id] = d
		initial = append(initial, d)
	}
	ix := roundTrip(t, build(initial), filepath.Join(t.TempDir(), "clips.index"))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for {
				select {
				case <-stop:
					return
				default:
				}
				terms, group := randomSearch(r, groups)
				ix.Find(Query{Terms: terms, Group: group, Limit: 20})
			}
		})
	}
	for range 100 {
		changed, gone := randomChanges(rng, docs, groups, 20, 2200)
		ix.Apply(changed, gone)
	}
	close(stop)
	wg.Wait()
	for range 100 {
		terms, group := randomSearch(rng, groups)
		if got, want := ix.Find(Query{Terms: terms, Group: group, Limit: 3000}), brute(docs, terms, group); !slices.Equal(got.IDs, want) {
			t.Fatalf("%q: %v, want %v", terms, got.IDs, want)
		}
	}
}
