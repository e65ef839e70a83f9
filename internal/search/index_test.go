package search

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

// brute is the definition the index must meet: ids (highest first) of
// the titles containing every term, in group when group is set.
func brute(docs map[int64]Doc, terms []string, group *string) []int64 {
	var ids []int64
	for id, d := range docs {
		if group != nil && d.Group != *group {
			continue
		}
		ok := true
		for _, t := range terms {
			if !strings.Contains(d.Fold, t) {
				ok = false
				break
			}
		}
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids
}

var alphabet = []string{"a", "b", "ab", "A", "é", "É", "e\u0301", "ก", "ข", "ตอน", "の", "猫", "%", "_", `"`, " ", "x", "ß", "SS", "İ"}

func randomTitle(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(12) {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// TestIndexMatchesBruteForce checks search results and totals against a
// plain substring scan, after random adds, edits and deletes, on terms
// of one rune up to whole titles.
func TestIndexMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	groups := []string{"", "JAV", "ทวิต"}
	docs := map[int64]Doc{}
	ix := New()
	var initial []Doc
	for id := int64(1); id <= 400; id++ {
		d := Doc{ID: id, Fold: catalog.SearchText(randomTitle(rng), ""), Group: groups[rng.IntN(3)]}
		docs[id] = d
		initial = append(initial, d)
	}
	i := 0
	ix.Build(func() (Doc, bool) {
		if i == len(initial) {
			return Doc{}, false
		}
		i++
		return initial[i-1], true
	})
	for round := range 60 {
		for range 50 {
			terms, group := randomSearch(rng, groups)
			want := brute(docs, terms, group)
			offset, limit := int64(rng.IntN(5)), int64(1+rng.IntN(20))
			got := ix.Find(Query{Terms: terms, Group: group, Offset: offset, Limit: limit})
			if got.Total != int64(len(want)) {
				t.Fatalf("round %d: %q total %d, want %d", round, terms, got.Total, len(want))
			}
			page := want[min(int(offset), len(want)):min(int(offset+limit), len(want))]
			if !slices.Equal(got.IDs, page) {
				t.Fatalf("round %d: %q offset %d: ids %v, want %v", round, terms, offset, got.IDs, page)
			}
		}
		changed, gone := randomChanges(rng, docs, groups, 20, 500)
		// Apply handles gone before docs: a later re-add wins.
		ix.Apply(changed, gone)
		if ix.Len() != len(docs) {
			t.Fatalf("round %d: Len %d, want %d", round, ix.Len(), len(docs))
		}
	}
}

// randomSearch is one to three random terms, and a group one time in
// three.
func randomSearch(rng *rand.Rand, groups []string) (terms []string, group *string) {
	for range 1 + rng.IntN(3) {
		terms = append(terms, randomTitle(rng))
	}
	terms = catalog.SearchTerms(strings.Join(terms, " "))
	if rng.IntN(3) == 0 {
		group = &groups[rng.IntN(len(groups))]
	}
	return terms, group
}

// randomChanges makes n random changes among ids 1..maxID (new ids,
// edits, deletes) to docs, and returns them as Apply takes them.
func randomChanges(rng *rand.Rand, docs map[int64]Doc, groups []string, n, maxID int) (changed []Doc, gone []int64) {
	for range n {
		id := int64(1 + rng.IntN(maxID))
		changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
		if rng.IntN(3) == 0 {
			delete(docs, id)
			gone = append(gone, id)
			continue
		}
		d := Doc{ID: id, Fold: catalog.SearchText(randomTitle(rng), ""), Group: groups[rng.IntN(len(groups))]}
		docs[id] = d
		changed = append(changed, d)
		gone = slices.DeleteFunc(gone, func(g int64) bool { return g == id })
	}
	return changed, gone
}

// TestIndexLeavesOutHugeIDs: records whose ids are above 2^32-1 are
// left out of every list and counted, in a build, in changes, and in
// the index's file; the others are all there.
func TestIndexLeavesOutHugeIDs(t *testing.T) {
	ix := build([]Doc{{ID: 1, Fold: "river one"}, {ID: 4294967296, Fold: "river far"}, {ID: 4294967295, Fold: "river last"}})
	check := func(what string, ix *Index, wantIDs []int64, wantOut int, wantFirst []int64) {
		t.Helper()
		if r := ix.Find(Query{Terms: []string{"river"}, Limit: 20}); !slices.Equal(r.IDs, wantIDs) || r.Total != int64(len(wantIDs)) {
			t.Fatalf("%s: river: %d %v, want %v", what, r.Total, r.IDs, wantIDs)
		}
		if n, first := ix.LeftOut(); n != wantOut || !slices.Equal(first, wantFirst) {
			t.Fatalf("%s: LeftOut %d %v, want %d %v", what, n, first, wantOut, wantFirst)
		}
	}
	check("build", ix, []int64{4294967295, 1}, 1, []int64{4294967296})
	ix.Apply([]Doc{{ID: 9223372036854775807, Fold: "river max"}, {ID: 2, Fold: "river two"}, {ID: 4294967296, Fold: "river edited"}}, nil)
	check("changes", ix, []int64{4294967295, 2, 1}, 2, []int64{4294967296, 9223372036854775807})
	ix.Apply(nil, []int64{9223372036854775807})
	check("a delete", ix, []int64{4294967295, 2, 1}, 1, []int64{4294967296})
	for id := int64(1 << 33); id < 1<<33+10; id++ {
		ix.Apply([]Doc{{ID: id, Fold: "river"}}, nil)
	}
	first := []int64{4294967296, 8589934592, 8589934593, 8589934594, 8589934595}
	check("eleven out", ix, []int64{4294967295, 2, 1}, 11, first)
	check("from its file", roundTrip(t, ix, filepath.Join(t.TempDir(), "clips.index")), []int64{4294967295, 2, 1}, 11, first)
}

// demoDocs returns n folded demo clip titles with ids 1..n.
func demoDocs(n int) []Doc {
	p, _ := catalog.NewPlatforms(catalog.DefaultPlatforms())
	g := demo.NewGenerator(1, p, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	docs := make([]Doc, n)
	for i := range docs {
		c := g.Clip()
		docs[i] = Doc{ID: int64(i + 1), Fold: catalog.SearchText(c.Title, ""), Group: c.Platform}
	}
	return docs
}

func build(docs []Doc) *Index {
	ix := New()
	i := 0
	ix.Build(func() (Doc, bool) {
		if i == len(docs) {
			return Doc{}, false
		}
		i++
		return docs[i-1], true
	})
	return ix
}

const benchDocs = 1_000_000

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkBuild1M(b *testing.B) {
	docs := demoDocs(benchDocs)
	b.ResetTimer()
	var ix *Index
	cpu0 := cpuTime()
	for range b.N {
		ix = build(docs)
	}
	b.StopTimer()
	// CPU time, not only wall time: on a shared machine the wall time
	// says more about the neighbours than about the build.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	docs = nil
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heapMiB")
	b.ReportMetric(float64(ix.grams.count()), "grams")
	runtime.KeepAlive(ix)
}

func BenchmarkQuery1M(b *testing.B) {
	ix := build(demoDocs(benchDocs))
	for _, q := range []string{"part", "ab", "a", "ตอนที่", "の", "golden sunset", "part 12", "夕暮れの海"} {
		terms := catalog.SearchTerms(q)
		b.Run(q, func(b *testing.B) {
			var r Result
			for range b.N {
				r = ix.Find(Query{Terms: terms, Limit: 20})
			}
			b.ReportMetric(float64(r.Total), "matches")
		})
		b.Run(q+"/deep", func(b *testing.B) {
			r := ix.Find(Query{Terms: terms, Limit: 20})
			for range b.N {
				ix.Find(Query{Terms: terms, Offset: r.Total / 2, Limit: 20})
			}
		})
	}
	b.Run("part/uncached", func(b *testing.B) {
		terms := []string{"part"}
		for range b.N {
			ix.words = newWordCache()
			ix.Find(Query{Terms: terms, Limit: 20})
		}
	})
}

func BenchmarkUpdate1M(b *testing.B) {
	docs := demoDocs(benchDocs)
	ix := build(docs)
	ix.Find(Query{Terms: []string{"part"}, Limit: 20}) // a cached word set to keep current
	b.ResetTimer()
	for i := range b.N {
		d := docs[i%len(docs)]
		d.Fold = fmt.Sprintf("edited title %d ตอนที่", i)
		ix.Apply([]Doc{d}, nil)
	}
}

// TestTermWithSpace: grams holding white space are not indexed (no term
// from catalog.SearchTerms holds any), yet a caller's term that does is
// still answered exactly.
func TestTermWithSpace(t *testing.T) {
	docs := map[int64]Doc{}
	var list []Doc
	for id, title := range []string{"a b", "ab", "xa bx", "a\u3000b", "a  b", "b a", "a b c"} {
		d := Doc{ID: int64(id + 1), Fold: title}
		docs[d.ID] = d
		list = append(list, d)
	}
	ix := build(list)
	for _, term := range []string{"a b", " ", "a\u3000b", "a b c", "a  b", " b"} {
		want := brute(docs, []string{term}, nil)
		got := ix.Find(Query{Terms: []string{term}, Limit: 10})
		if got.Total != int64(len(want)) || !slices.Equal(got.IDs, want) {
			t.Errorf("%q: ids %v, want %v", term, got.IDs, want)
		}
	}
}

// BenchmarkVariedSearches1M is the load kit's varied searches
// (bench/scenario.lua's {words}) on the index alone: one to three terms
// per query, each a title word of the newest records or, one time in
// three, a one- or two-character beginning of one, first page.
func BenchmarkVariedSearches1M(b *testing.B) {
	docs := demoDocs(benchDocs)
	ix := build(docs)
	queries := variedQueries(docs[len(docs)-100:])
	i := 0
	for b.Loop() {
		ix.Find(Query{Terms: queries[i%len(queries)], Limit: 20})
		i++
	}
}

// variedQueries are 4,096 searches of one to three terms, each a word of
// the titles of docs (the first line of their search text) or, one time
// in three, a one- or two-character beginning of one.
func variedQueries(docs []Doc) [][]string {
	var words, short []string
	for _, d := range docs {
		title, _, _ := strings.Cut(d.Fold, "\n")
		for _, w := range strings.Fields(title) {
			rs := []rune(w)
			short = append(short, string(rs[:1]), string(rs[:min(2, len(rs))]))
			if len(rs) >= 3 {
				words = append(words, w)
			}
		}
	}
	slices.Sort(words)
	words = slices.Compact(words)
	short = append(short, words...)
	rng := rand.New(rand.NewPCG(1, 2))
	queries := make([][]string, 4096)
	for i := range queries {
		for range 1 + rng.IntN(3) {
			t := words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 {
				t = short[rng.IntN(len(short))]
			}
			queries[i] = append(queries[i], t)
		}
		queries[i] = catalog.SearchTerms(strings.Join(queries[i], " "))
	}
	return queries
}
