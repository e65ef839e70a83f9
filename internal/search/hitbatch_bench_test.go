package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
)

// BenchmarkHitBatchCatchUp is one batch of internal/hits reaching the
// movies' index: 35,000 distinct movies hit (5 s of beacons at 7,000
// movies a second) written to a SQLite store of 100,000 movies, then
// the index brought up to the version after the write, as the next
// list request does (Live.Find). It reports the process's CPU time per
// batch, the write and the index's work in the background included.
// The store and the index are made once a process, so that -count
// rounds measure batches, not seeding.
func BenchmarkHitBatchCatchUp(b *testing.B) {
	const movies, hit = 100_000, 35_000
	ctx := context.Background()
	s, l := hitBatchFixture(b, movies)
	counts := make([]catalog.HitCount, hit)
	for i := range counts {
		counts[i] = catalog.HitCount{ID: 1 + int64(i)*movies/hit, N: 1}
	}
	day := catalog.HitDayOf(time.Now())
	find := func() {
		v, err := s.KindVersion(ctx, catalog.SearchMovies)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := l.Find(ctx, v, Query{Sort: catalog.SortHits, Today: day, Limit: 20})
			if err == nil {
				return
			}
			if !errors.Is(err, ErrBuilding) { // else dropped for a rebuild: wait
				b.Fatal(err)
			}
		}
	}
	find()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if err := s.AddHits(ctx, day, counts); err != nil {
			b.Fatal(err)
		}
		find()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
}

// hitBatch is BenchmarkHitBatchCatchUp's store and index, seeded once
// a process (every -count round shares them) and left running.
var hitBatch struct {
	once sync.Once
	dir  string // removed by TestMain
	s    *sqlite.Store
	l    *Live
	err  error
}

// TestMain removes BenchmarkHitBatchCatchUp's database, if one was made.
func TestMain(m *testing.M) {
	code := m.Run()
	if hitBatch.dir != "" {
		if hitBatch.s != nil {
			hitBatch.s.Close()
		}
		os.RemoveAll(hitBatch.dir)
	}
	os.Exit(code)
}

func hitBatchFixture(b *testing.B, movies int) (*sqlite.Store, *Live) {
	hitBatch.once.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "hitbatch")
		if err != nil {
			hitBatch.err = err
			return
		}
		hitBatch.dir = dir
		s, err := sqlite.Open(ctx, filepath.Join(dir, "hits.db"), sqlite.Options{})
		if err == nil {
			err = s.Migrate(ctx)
		}
		for from := 0; err == nil && from < movies; from += 10_000 {
			batch := make([]catalog.Movie, 10_000)
			for i := range batch {
				k := from + i
				m := &batch[i]
				m.Name = fmt.Sprintf("Movie %d of the hit batch", k)
				m.IDCode = fmt.Sprintf("HIT-%07d", k)
				m.Slug = catalog.Slugify(m.Name)
				m.Year = "2020"
				m.Synopsis = "A synthetic movie for the hit batch benchmark."
				for j := range m.Lists {
					m.Lists[j] = catalog.NewList([]string{fmt.Sprint("Value ", k%50+j), "Other"})
				}
			}
			err = s.UpsertMovies(ctx, batch)
		}
		if err != nil {
			hitBatch.err = err
			return
		}
		hitBatch.s, hitBatch.l = s, NewLive(s, catalog.SearchMovies, nil)
		hitBatch.l.Start(ctx)
	})
	if hitBatch.err != nil {
		b.Fatal(hitBatch.err)
	}
	return hitBatch.s, hitBatch.l
}
