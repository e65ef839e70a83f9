package metrics_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/metrics"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/testdb"
)

// BenchmarkService is the cost of the metrics wrapper per request: the
// same route table with metrics off (a nil Registry: no wrapper) and on.
func BenchmarkService(b *testing.B) {
	for _, c := range []struct {
		name string
		m    *metrics.Registry
	}{{"off", nil}, {"on", metrics.New()}} {
		b.Run(c.name, func(b *testing.B) {
			h := service(c.m)
			req := httptest.NewRequest(http.MethodGet, "/api/things/17", nil)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}

// discard is a ResponseWriter that keeps nothing, so that the benchmark
// measures the handlers.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkMovieRead is the same cost beside a whole request: a cached
// /api/movies page served by the real movie service, without and with
// the wrapper (and its cache counters).
func BenchmarkMovieRead(b *testing.B) {
	ctx := context.Background()
	st := testdb.Open(b)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		b.Fatal(err)
	}
	if err := demo.SeedMovies(ctx, st, demo.NewGenerator(1, platforms, time.Now().Add(-time.Hour), time.Second, 0), 100); err != nil {
		b.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			var m *metrics.Registry // a fresh one per run: the benchmark function runs more than once
			if on {
				m = metrics.New()
			}
			h := cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(b, st, catalog.SearchMovies), Store: st, Metrics: m,
				Snapshots: snapshot.New(snapshot.Config{Store: st, Dir: b.TempDir()})})
			req := httptest.NewRequest(http.MethodGet, "/api/movies?limit=20", nil)
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(&discard{h: http.Header{}}, req)
			}
		})
	}
}
