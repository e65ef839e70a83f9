package search

import (
	"strconv"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// The word cache's bound grows with the catalog: 8 bytes a record, at
// least 8 MiB, so that a large catalog keeps as many terms as a small
// one although each term's set is larger.
func TestWordCacheBoundGrowsWithTheCatalog(t *testing.T) {
	for _, c := range []struct {
		records int
		want    int64
	}{
		{0, 8388608},
		{1_000_000, 8388608},
		{1_048_576, 8388608},
		{10_000_000, 80000000},
	} {
		if got := wordCacheBytes(c.records); got != c.want {
			t.Errorf("wordCacheBytes(%d) = %d, want %d", c.records, got, c.want)
		}
	}

	// Twenty sets of about 1 MiB each (a term in a tenth of ten million
	// titles): an 8 MiB bound keeps a few, the bound of ten million
	// records keeps them all.
	set := roaring.New()
	for i := uint32(0); i < 10_000_000; i += 20 {
		set.Add(i)
	}
	kept := func(maxBytes int64) int {
		c := newWordCache()
		for i := range 20 {
			c.put("term"+strconv.Itoa(i), set.Clone(), maxBytes)
		}
		c.c.CleanUp() // otter evicts in the background: settle it now
		n := 0
		for i := range 20 {
			if c.get("term"+strconv.Itoa(i)) != nil {
				n++
			}
		}
		return n
	}
	if n := kept(8388608); n > 8 {
		t.Errorf("an 8 MiB cache kept %d sets of %d bytes", n, set.GetSizeInBytes())
	}
	if n := kept(80000000); n != 20 {
		t.Errorf("the bound of ten million records kept %d of 20 sets of %d bytes", n, set.GetSizeInBytes())
	}
}

// wordCacheIndex is BenchmarkWordCache1M's index of a million demo
// clips and the load kit's searches of it, built once per process, so
// that -count repeats the rows, not the build.
var wordCacheIndex = sync.OnceValues(func() (*Index, [][]string) {
	docs := demoDocs(benchDocs)
	return build(docs), variedQueries(docs[len(docs)-100:])
})

// BenchmarkWordCache1M is the word cache's paths, for an A/B of the
// cache against none or another (BENCHMARKS.md): the load kit's varied
// searches (BenchmarkVariedSearches1M), and a title edited while the
// cache holds the terms those searches left (every cached set is kept
// current: note).
func BenchmarkWordCache1M(b *testing.B) {
	ix, queries := wordCacheIndex()
	b.Run("search", func(b *testing.B) {
		i := 0
		start := cpuTime()
		for b.Loop() {
			ix.Find(Query{Terms: queries[i%len(queries)], Limit: 20})
			i++
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	})
	b.Run("edit", func(b *testing.B) {
		i := 0
		start := cpuTime()
		for b.Loop() {
			ix.Apply([]Doc{{ID: int64(1 + i%1000), Fold: "edited title " + strconv.Itoa(i) + " ตอนที่"}}, nil)
			i++
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	})
}
