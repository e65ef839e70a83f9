package movieapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testenv"
)

// BenchmarkHotPaths serves the hot reads through the whole movie
// service, in process, over a seeded store of the engine
// CATALOG_TEST_ENGINE names, many requests at a time as under load:
// the first page (a cache hit), deep pages, details and searches (each
// a fresh service, so mostly misses that reach the index and the
// store), and MacCMS detail pages. Besides ns/op it reports cpu-ns/op,
// the process's CPU time per request, which a machine shared with other
// work disturbs less than the wall clock (the database server's CPU is
// not in it).
//
// Compare two builds with benchstat, running them in turn:
//
//	go test -c -o new.test ./internal/movieapi
//	./new.test -test.run '^$' -test.bench HotPaths -test.benchtime 2000x -test.count 1
func BenchmarkHotPaths(b *testing.B) {
	const movies = 10_000
	store := newTestStore(b)
	seedDemo(b, store, 1, movies)
	live := searchtest.Start(b, store, catalog.SearchMovies)
	pages := int64(movies / catalog.DefaultLimit)
	actor, actorMovies := topActor(b, cli.MovieService(cli.ServiceDeps{Store: store, Version: "bench", MovieSearch: live}))
	for _, bm := range []struct {
		name   string
		target func(i int64) string
	}{
		{"list", func(int64) string { return "/api/movies" }},
		{"deep-page", func(i int64) string { return fmt.Sprintf("/api/movies?limit=20&page=%d", 2+(i*7919)%(movies/20-1)) }},
		{"detail", func(i int64) string { return fmt.Sprintf("/api/movies/%d", 1+(i*7919)%movies) }},
		{"search", func(i int64) string {
			return []string{"/api/movies?q=paper", "/api/movies?q=river+house", "/api/movies?q=fer"}[i%3] + fmt.Sprintf("&page=%d", 1+i%5)
		}},
		{"actor-deep-page", func(i int64) string {
			// As at 1M movies, where the pages of one actor outnumber the
			// cached answers: limits of 15 to 25 make more distinct pages
			// than a run asks for.
			limit := 15 + i%11
			return fmt.Sprintf("/api/movies?fields=id,title,year&actor=%s&limit=%d&page=%d", actor, limit, 1+(i*7919)%(actorMovies/limit))
		}},
		{"maccms-detail", func(i int64) string { return fmt.Sprintf(vodPath+"?ac=detail&pg=%d", 1+(i*7919)%pages) }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			serveParallel(b, cli.MovieService(cli.ServiceDeps{Store: store, Version: "bench", MovieSearch: live}), bm.target)
		})
	}
}

// serveParallel serves GET target(i) with gzip through h, many requests
// at a time as under load, each expecting 200, and reports cpu-ns/op:
// the process's CPU time per request.
func serveParallel(b *testing.B, h http.Handler, target func(i int64) string) {
	b.ReportAllocs()
	b.SetParallelism(4) // many connections at a time
	cpu := testenv.CPUTime()
	var next atomic.Int64 // where a run starts differs, so a detail is rarely asked twice
	next.Store(time.Now().UnixNano() % 1_000_000)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			r := httptest.NewRequest(http.MethodGet, target(i), nil)
			r.Header.Set("Accept-Encoding", "gzip")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Errorf("%s: %d %s", target(i), w.Code, w.Body)
				return
			}
		}
	})
	b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// topActor is the actor with the most movies in h's catalog, as a query
// value, and the number of its movies.
func topActor(b *testing.B, h http.Handler) (string, int64) {
	b.Helper()
	r := get(b, h, "/api/movies/facets?field=actor&limit=1", http.StatusOK)
	var page struct {
		List []struct {
			Value string
			Count int64
		}
	}
	if err := json.Unmarshal(r.body, &page); err != nil || len(page.List) == 0 {
		b.Fatalf("actor facet: %v %s", err, r.body)
	}
	return url.QueryEscape(page.List[0].Value), page.List[0].Count
}
