package snapshot

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

// BenchmarkRangeSuffixPlain times `Range: bytes=-1` without
// Accept-Encoding: gzip (contract 4.4) on a snapshot of
// CATALOG_BENCH_SNAPSHOT_MOVIES movies from the demo generator (default
// 50,000, about 29 MB of JSON; 1,000,000 gives the 579 MB of the seeded
// benchmark catalog), with full-flush points and without.
func BenchmarkRangeSuffixPlain(b *testing.B) {
	movies := 50_000
	if v := os.Getenv("CATALOG_BENCH_SNAPSHOT_MOVIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("CATALOG_BENCH_SNAPSHOT_MOVIES=%q: want a positive count", v)
		}
		movies = n
	}
	for _, bm := range []struct {
		name       string
		flushEvery int64
	}{
		{"flush points", flushEvery},
		{"no flush points", 1 << 62},
	} {
		b.Run(bm.name, func(b *testing.B) {
			s := New(Config{Store: demoStore{generatedStore{n: movies}}, Dir: b.TempDir(), Every: time.Hour})
			s.flushEvery = bm.flushEvery
			refresh(b, s)
			before := s.inflated.Load()
			b.ResetTimer()
			for b.Loop() {
				if r := serve(b, s, http.MethodGet, "Range", "bytes=-1"); r.status != http.StatusPartialContent || len(r.body) != 1 {
					b.Fatalf("got %d with %d bytes, want 206 with 1", r.status, len(r.body))
				}
			}
			b.ReportMetric(float64(s.inflated.Load()-before)/float64(b.N), "inflated-B/op")
			b.ReportMetric(float64(s.current.Load().plainSize)/(1<<20), "doc-MiB")
			b.ReportMetric(float64(s.current.Load().gzipSize)/(1<<20), "gzip-MiB")
		})
	}
}

// demoStore streams n movies of the demo generator, as `catalog seed`
// writes them, ids n down to 1.
type demoStore struct{ generatedStore }

func (d demoStore) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		return err
	}
	g := demo.NewGenerator(1, platforms, time.Time{}, time.Second, 0)
	for i := d.n; i >= 1; i-- {
		m := g.Movie()
		m.ID = int64(i)
		if err := fn(&m); err != nil {
			return err
		}
	}
	return nil
}
