package search

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// BenchmarkSaveHoldsCatchUps measures how long a save of the index file
// (1,000,000 demo clip titles, or SAVE_DOCS) keeps catch-ups waiting: a
// prober applies one change under l.mu every millisecond, as a catch-up
// does, and the longest of those (its wait included) is reported with
// the save's time. The first save writes an index built in the heap,
// the later ones the index mapped from the previous file. The prober's
// changes bypass the catch-up's journal, so the file does not keep
// them; they only load the index as a catch-up would.
func BenchmarkSaveHoldsCatchUps(b *testing.B) {
	n := benchDocs
	if s := os.Getenv("SAVE_DOCS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	docs := demoDocs(n)
	l := NewLive(nil, catalog.SearchClips, nil)
	l.UseFile(filepath.Join(b.TempDir(), "clips.index"))
	l.file.identity = "bench"
	l.setState(&state{ix: build(docs)})
	r := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := range b.N {
		l.st.Load().version.Add(1) // a change since the last write
		var wait, longest time.Duration
		probes := 0
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
				d := docs[r.IntN(len(docs))]
				d.Fold = "edited " + d.Fold
				start := time.Now()
				l.mu.Lock()
				wait = max(wait, time.Since(start))
				l.st.Load().ix.Apply([]Doc{d}, nil)
				l.mu.Unlock()
				longest = max(longest, time.Since(start))
				probes++
			}
		}()
		cpu0, start := cpuTime(), time.Now()
		l.save()
		took, cpu := time.Since(start), cpuTime()-cpu0
		close(stop)
		<-done
		b.Logf("save %d: %v wall, %.2f CPU-s (prober included); of %d catch-ups the longest waited %v for l.mu and took %v in all",
			i+1, took.Round(time.Millisecond), cpu.Seconds(), probes, wait.Round(10*time.Microsecond), longest.Round(10*time.Microsecond))
		b.ReportMetric(float64(wait.Microseconds())/1000, "max-wait-ms")
		b.ReportMetric(float64(longest.Microseconds())/1000, "max-catchup-ms")
	}
}

// BenchmarkSaveOnDatabase measures the same on a real SQLite database
// and its clip index file (SAVE_DB names a copy: the file is written
// over, and clips are edited): the index opens from its file, another
// handle edits a clip every 20 ms, and a search at the database's
// current version (so with a catch-up) runs every 5 ms; each save's
// time is reported with the slowest of those searches.
func BenchmarkSaveOnDatabase(b *testing.B) {
	path := os.Getenv("SAVE_DB")
	if path == "" {
		b.Skip("SAVE_DB names a copy of a database with its index files")
	}
	ctx := b.Context()
	a, w := openSQLite(b, path), openSQLite(b, path)
	l := NewLive(a, catalog.SearchClips, nil)
	l.UseFile(filepath.Join(path+".index", "clips.idx"))
	l.started.Do(func() {}) // no run loop: the benchmark calls save
	if !l.open(ctx) {
		b.Fatal("the index file did not open")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range b.N {
		var slowest time.Duration
		searches := 0
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			edit, search := time.NewTicker(20*time.Millisecond), time.NewTicker(5*time.Millisecond)
			defer edit.Stop()
			defer search.Stop()
			for {
				select {
				case <-stop:
					return
				case <-edit.C:
					id := 1 + r.Int64N(1_000_000)
					w.UpdateClip(ctx, id, func(c *catalog.Clip) error { c.Title += " e"; return nil })
				case <-search.C:
					v, err := w.KindVersion(ctx, catalog.SearchClips)
					if err != nil {
						b.Error(err)
						return
					}
					start := time.Now()
					if _, err := l.Find(ctx, v, Query{Terms: []string{"a"}, Limit: 20}); err != nil {
						b.Error(err)
						return
					}
					slowest = max(slowest, time.Since(start))
					searches++
				}
			}
		}()
		time.Sleep(200 * time.Millisecond) // edits to write
		cpu0, start := cpuTime(), time.Now()
		l.save()
		took, cpu := time.Since(start), cpuTime()-cpu0
		time.Sleep(200 * time.Millisecond)
		close(stop)
		<-done
		b.Logf("save %d: %v wall, %.2f CPU-s (edits and searches included); slowest of %d searches with a catch-up: %v",
			i+1, took.Round(time.Millisecond), cpu.Seconds(), searches, slowest.Round(100*time.Microsecond))
		b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-search-ms")
	}
}
