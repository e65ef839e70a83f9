package search

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

// searchText is the stored search text of a record (catalog.SearchText).
func searchText(title, code string) string { return catalog.SearchText(title, code) }

// demoKind returns n demo records of kind ("clips" or "movies") as the
// index gets them from the database, ids 1..n.
func demoKind(kind string, n int) []Doc {
	if kind == "clips" {
		return demoDocs(n)
	}
	p, _ := catalog.NewPlatforms(catalog.DefaultPlatforms())
	g := demo.NewGenerator(1, p, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	docs := make([]Doc, n)
	for i := range docs {
		m := g.Movie()
		var lists [catalog.NumValueFields]string
		for j := range lists {
			lists[j] = m.Lists[j].JSON
		}
		docs[i] = Doc{ID: int64(i + 1), Fold: searchText(m.Name, m.IDCode), Changed: 1_700_000_000 + int64(i), Year: m.Year,
			Values: catalog.SearchValues(&lists), Score: m.Score}
	}
	return docs
}

// BenchmarkBuildDemo1M builds the index of a million demo clips and of a
// million demo movies from their stored search text, and reports the
// CPU time of a build, the heap the index holds and the size of its
// file (the goals of contract 11's fold: at most 25 % more than the
// fold of titles alone).
func BenchmarkBuildDemo1M(b *testing.B) {
	for _, kind := range []string{"clips", "movies"} {
		b.Run(kind, func(b *testing.B) {
			docs := demoKind(kind, benchDocs)
			runtime.GC()
			var ix *Index
			cpu0 := cpuTime()
			for b.Loop() {
				ix = build(docs)
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			docs = nil
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heapMiB")
			path := filepath.Join(b.TempDir(), kind+".idx")
			if err := ix.WriteFile(path, FileHeader{Kind: 1, Version: 1, Identity: "bench"}); err != nil {
				b.Fatal(err)
			}
			n, err := fileSize(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(n)/(1<<20), "fileMiB")
		})
	}
}

// BenchmarkDemoSearches1M is BenchmarkVariedSearches1M on both kinds of
// demo records: one to three words of the newest titles (or, one time
// in three, their first one or two characters), first page, with the
// process's CPU time per search.
func BenchmarkDemoSearches1M(b *testing.B) {
	for _, kind := range []string{"clips", "movies"} {
		b.Run(kind, func(b *testing.B) {
			docs := demoKind(kind, benchDocs)
			ix := build(docs)
			queries := variedQueries(docs[len(docs)-100:])
			docs = nil
			runtime.GC()
			i := 0
			cpu0 := cpuTime()
			for b.Loop() {
				ix.Find(Query{Terms: queries[i%len(queries)], Limit: 20})
				i++
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
