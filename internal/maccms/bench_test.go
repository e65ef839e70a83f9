package maccms_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/demo"
	"catalog/internal/movieapi/movietest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// BenchmarkProvideVod times the MacCMS resource API over 100,000
// generated movies (CATALOG_TEST_ENGINE picks the engine), one request
// at a time through the whole handler. Pages are spread over the
// catalog, so that most requests miss the movietest.Response cache and reach the
// store; "hit" repeats one URL; h=24 (every movie, as all were just
// written) is never cached; jav/page is /api/jav's list for comparison.
func BenchmarkProvideVod(b *testing.B) {
	const movies = 100_000
	db := testdb.New(b)
	store := db.Open(b)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		b.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	start := time.Now()
	if err := demo.SeedMovies(context.Background(), store, g, movies); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d movies in %v", movies, time.Since(start).Round(time.Millisecond))
	if testdb.Engine() == testdb.Postgres {
		// What autovacuum does soon after a bulk load: without it the
		// visibility map is empty and every index-only scan (the page
		// subquery) visits the table.
		conn, err := pgx.Connect(context.Background(), db.DSN())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := conn.Exec(context.Background(), "VACUUM ANALYZE movies"); err != nil {
			b.Fatal(err)
		}
		conn.Close(context.Background())
	}
	h := movietest.Service(b, store, nil)
	pages := movies / catalog.DefaultLimit
	movietest.Get(b, h, fmt.Sprintf(movietest.VodPath+"?pg=%d", pages/2), http.StatusOK)
	for _, bm := range []struct {
		name   string
		target func(i int) string
	}{
		{"detail/hit", func(int) string { return movietest.VodPath + "?ac=detail" }},
		{"detail/page", func(i int) string { return fmt.Sprintf(movietest.VodPath+"?ac=detail&pg=%d", 1+(i*7919)%pages) }},
		{"detail/page-xml", func(i int) string { return fmt.Sprintf(movietest.VodPath+"?ac=detail&at=xml&pg=%d", 1+(i*7919)%pages) }},
		{"detail/type-page", func(i int) string {
			return fmt.Sprintf(movietest.VodPath+"?ac=detail&t=%d&pg=%d", 1+i%8, 1+(i*7919)%(pages/10))
		}},
		{"detail/h24-first-page", func(int) string { return movietest.VodPath + "?ac=detail&h=24" }},
		{"detail/ids-20", func(i int) string {
			return fmt.Sprintf(movietest.VodPath+"?ac=detail&ids=%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d",
				i%movies+1, i%movies+2, i%movies+3, i%movies+4, i%movies+5, i%movies+6, i%movies+7, i%movies+8, i%movies+9, i%movies+10,
				i%movies+11, i%movies+12, i%movies+13, i%movies+14, i%movies+15, i%movies+16, i%movies+17, i%movies+18, i%movies+19, i%movies+20)
		}},
		// /api/jav over the same catalog, for comparison.
		{"jav/page", func(i int) string { return fmt.Sprintf("/api/jav?pg=%d", 1+(i*7919)%pages) }},
		{"list/page", func(i int) string { return fmt.Sprintf(movietest.VodPath+"?ac=list&pg=%d", 1+(i*7919)%pages) }},
		{"detail/search", func(i int) string {
			return []string{movietest.VodPath + "?ac=detail&wd=paper", movietest.VodPath + "?ac=detail&wd=river+house", movietest.VodPath + "?ac=detail&wd=fer"}[i%3] +
				fmt.Sprintf("&pg=%d", 1+i%50)
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r := httptest.NewRequest(http.MethodGet, bm.target(i), nil)
				r.Header.Set("Accept-Encoding", "gzip")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", bm.target(i), w.Code, w.Body)
				}
			}
		})
	}
}

// BenchmarkVodXML is the XML answer's path (at=xml) through the whole
// movie service, over 2,000 demo movies on the engine
// CATALOG_TEST_ENGINE names: h=8760 keeps every answer out of the
// response cache, so that each request reads its page and encodes it.
// Besides ns/op it reports cpu-ns/op, the process's CPU time per
// request. The JSON form of the same pages is beside it, for scale.
//
// Compare two builds with benchstat, running them in turn:
//
//	go test -c -o new.test ./internal/maccms
//	./new.test -test.run '^$' -test.bench VodXML -test.benchtime 400x -test.count 1
func BenchmarkVodXML(b *testing.B) {
	const movies = 2_000
	const pages = movies / catalog.DefaultLimit
	store := movietest.Store(b)
	movietest.SeedDemo(b, store, 1, movies)
	h := movietest.Service(b, store, nil)
	for _, bm := range []struct{ name, query string }{
		{"detail-xml", "ac=detail&at=xml"},
		{"list-xml", "ac=list&at=xml"},
		{"detail-json", "ac=detail"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := testenv.CPUTime()
			for i := 0; b.Loop(); i++ {
				target := fmt.Sprintf("%s?%s&h=8760&pg=%d", movietest.VodPath, bm.query, 1+(i*37)%pages)
				r := httptest.NewRequest(http.MethodGet, target, nil)
				r.Header.Set("Accept-Encoding", "gzip")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", target, w.Code, w.Body)
				}
			}
			b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
