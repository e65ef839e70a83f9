package search_test

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/sqlite"
)

// BenchmarkSeeded measures list pages from the index plus the rows'
// keyed read (searches, and the resource API's filters and change order
// at any depth), on a seeded catalog named by CATALOG_BENCH_DB (a SQLite
// file or a postgres:// URL; `catalog seed`):
//
//	CATALOG_BENCH_DB=/tmp/s.db go test -run XXX -bench Seeded ./internal/search/
func BenchmarkSeeded(b *testing.B) {
	dsn := os.Getenv("CATALOG_BENCH_DB")
	if dsn == "" {
		b.Skip("CATALOG_BENCH_DB not set")
	}
	ctx := context.Background()
	var st store
	var err error
	if strings.HasPrefix(dsn, "postgres") {
		st, err = postgres.Open(ctx, dsn, postgres.Options{})
	} else {
		st, err = sqlite.Open(ctx, dsn, sqlite.Options{})
	}
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	clips := search.NewLive(st, catalog.SearchClips, nil)
	clips.Start(ctx)
	movies := search.NewLive(st, catalog.SearchMovies, nil)
	movies.Start(ctx)
	searchtest.WaitReady(b, clips)
	searchtest.WaitReady(b, movies)
	b.Logf("both indexes ready after %s", time.Since(start).Round(time.Millisecond))

	for _, q := range []string{"part", "ab", "a", "ตอนที่", "の", "golden sunset", "夕暮れの海", "zzz"} {
		terms := catalog.SearchTerms(q)
		paging := catalog.Paging{Page: 1, Limit: 20}
		b.Run("clips/"+q, func(b *testing.B) {
			var total int64
			cpu0 := processCPU()
			for b.Loop() {
				if _, total, err = clips.Clips(ctx, 0, catalog.ClipFilter{Terms: terms, Paging: paging}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(total), "matches")
		})
		b.Run("movies/"+q, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				if _, _, err = movies.Movies(ctx, 0, catalog.MovieFilter{Terms: terms, Paging: paging}, catalog.AllFields(false)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
		b.Run("vods/wd/"+q, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				if _, _, err = movies.Vods(ctx, 0, catalog.VodFilter{Terms: terms, Paging: paging}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
	// The resource API's pages in change order, as collectors page.
	n := int64(movies.Stats().Documents)
	for _, tc := range []struct {
		name string
		f    catalog.VodFilter
	}{
		{"first", catalog.VodFilter{}},
		{"middle", catalog.VodFilter{Paging: catalog.Paging{Page: n / 40, Limit: 20}}},
		{"last", catalog.VodFilter{Paging: catalog.Paging{Page: n/20 + 1, Limit: 20}}},
		{"middle/asc", catalog.VodFilter{Ascending: true, Paging: catalog.Paging{Page: n / 40, Limit: 20}}},
		{"type/middle", catalog.VodFilter{TypeID: 1, Paging: catalog.Paging{Page: n / 400, Limit: 20}}},
		{"year/middle", catalog.VodFilter{Years: catalog.YearRange{From: "2000", To: "2009"}, Paging: catalog.Paging{Page: n / 400, Limit: 20}}},
		{"h24", catalog.VodFilter{ChangedSince: time.Now().Add(-24 * time.Hour)}},
		{"m3u8/middle", catalog.VodFilter{PlayKind: 2, Paging: catalog.Paging{Page: n / 80, Limit: 20}}},
	} {
		if tc.f.Paging.Page == 0 {
			tc.f.Paging = catalog.Paging{Page: 1, Limit: 20}
		}
		b.Run("vods/"+tc.name, func(b *testing.B) {
			var total int64
			for b.Loop() {
				if _, total, err = movies.Vods(ctx, 0, tc.f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total), "matches")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used: on
// a shared machine it says more about the work than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
