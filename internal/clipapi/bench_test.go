package clipapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/search/searchtest"
)

// benchService is the whole clip service over a SQLite file of n
// generated clips.
func benchService(b *testing.B, n int) http.Handler {
	b.Helper()
	store := newTestStore(b)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		b.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	if err := demo.SeedClips(context.Background(), store, g, n); err != nil {
		b.Fatal(err)
	}
	return cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(b, store, catalog.SearchClips), MovieSearch: searchtest.Start(b, store, catalog.SearchMovies), Store: store})
}

// BenchmarkListEndToEnd serves list and detail requests through the
// whole handler (routing, version check, cache, gzip choice) in parallel.
// "first-page" is a cache hit after the first request; "deep-page" and
// "detail" mostly miss and reach the store. Concurrent requests share
// data version reads, so parallelism matters.
func BenchmarkListEndToEnd(b *testing.B) {
	const clips = 20_000
	h := benchService(b, clips)
	for _, bm := range []struct {
		name   string
		target func(i int) string
	}{
		{"first-page", func(int) string { return "/api/clips" }},
		{"platform-page", func(i int) string { return fmt.Sprintf("/api/clips?platform=JAV&page=%d", 1+i%100) }},
		{"deep-page", func(i int) string { return fmt.Sprintf("/api/clips?page=%d", 1+(i*7919)%(clips/20)) }},
		{"search", func(i int) string {
			return []string{"/api/clips?q=sunset", "/api/clips?q=market", "/api/clips?q=ตลาด"}[i%3]
		}},
		{"detail", func(i int) string { return fmt.Sprintf("/api/clips/%d", 1+(i*7919)%clips) }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(16) // many connections, as under load
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i++ {
					r := httptest.NewRequest(http.MethodGet, bm.target(i), nil)
					r.Header.Set("Accept-Encoding", "gzip")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != http.StatusOK {
						b.Fatalf("%s: got %d", bm.target(i), w.Code)
					}
				}
			})
		})
	}
}
