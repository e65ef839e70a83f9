package search_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/search"
	"catalog/internal/sqlite"
)

// BenchmarkSeeded compares one search page answered by the database
// (what serve did before the index) with the same page from the index
// plus the rows' fetch, on a seeded catalog named by CATALOG_BENCH_DB
// (a SQLite file or a postgres:// URL; `catalog seed`):
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
	for !clips.Ready() || !movies.Ready() {
		time.Sleep(10 * time.Millisecond)
	}
	b.Logf("both indexes ready after %s", time.Since(start).Round(time.Millisecond))

	for _, q := range []string{"part", "ab", "a", "ตอนที่", "の", "golden sunset", "夕暮れの海", "zzz"} {
		terms := catalog.SearchTerms(q)
		paging := catalog.Paging{Page: 1, Limit: 20}
		b.Run("clips/database/"+q, func(b *testing.B) {
			var total int64
			for range b.N {
				_, total, err = st.ListClips(ctx, catalog.ClipFilter{Terms: terms, Paging: paging})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total), "matches")
		})
		b.Run("clips/index/"+q, func(b *testing.B) {
			var total int64
			for range b.N {
				v, err := st.KindVersion(ctx, catalog.SearchClips)
				if err != nil {
					b.Fatal(err)
				}
				_, total, err = search.Page(ctx, clips, v, search.Query{Terms: terms, Limit: 20},
					func(ids []int64) ([]catalog.Clip, error) { return st.ClipsByID(ctx, ids) },
					func(c *catalog.Clip) (int64, string, string) { return c.ID, c.Title, c.Platform })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total), "matches")
		})
		b.Run("movies/database/"+q, func(b *testing.B) {
			for range b.N {
				if _, _, err = st.ListMovies(ctx, catalog.MovieFilter{Terms: terms, Paging: paging}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("movies/index/"+q, func(b *testing.B) {
			for range b.N {
				v, err := st.KindVersion(ctx, catalog.SearchMovies)
				if err != nil {
					b.Fatal(err)
				}
				r, err := movies.Search(ctx, v, terms, nil, 0, 20)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.MoviesByID(ctx, r.IDs, catalog.AllFields(false)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
