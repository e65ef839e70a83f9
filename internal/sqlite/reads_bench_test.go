package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
)

// benchDB opens the seeded catalog named by CATALOG_BENCH_DB (for
// example bench/results/.../bench-1000000-1000000.db), read as it is, or
// skips: the per-request reads are only worth timing at full size.
func benchDB(b *testing.B) (*sqlite.Store, int64) {
	b.Helper()
	path := os.Getenv("CATALOG_BENCH_DB")
	if path == "" {
		b.Skip("set CATALOG_BENCH_DB to a seeded catalog file")
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	n, err := s.CountMovies(ctx)
	if err != nil || n == 0 {
		b.Fatalf("CountMovies: %d, %v", n, err)
	}
	return s, n
}

// The request's context is cancellable, as a server's is.
func requestContext(b *testing.B) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	return ctx
}

func BenchmarkSeededReads(b *testing.B) {
	s, n := benchDB(b)
	ctx := requestContext(b)
	short, err := catalog.ParseFields("id,title,slug,poster2_url,year", false)
	if err != nil {
		b.Fatal(err)
	}
	all, _ := catalog.ParseFields("", false)
	// page is a page of 20 ids from id down, as the index gives them.
	page := func(id int64) []int64 {
		ids := make([]int64, 20)
		for i := range ids {
			ids[i] = id - int64(i)
		}
		return ids
	}
	for _, bm := range []struct {
		name string
		read func(id int64) error
	}{
		{"DataVersion", func(int64) error { _, err := s.DataVersion(ctx); return err }},
		{"GetClip", func(id int64) error { _, err := s.GetClip(ctx, id); return err }},
		{"GetMovie", func(id int64) error { _, err := s.GetMovie(ctx, id); return err }},
		{"ClipsByID", func(id int64) error { _, err := s.ClipsByID(ctx, page(id)); return err }},
		{"MoviesByID/short", func(id int64) error { _, err := s.MoviesByID(ctx, page(id), short); return err }},
		{"MoviesByID/all", func(id int64) error { _, err := s.MoviesByID(ctx, page(id), all); return err }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bm.read(1 + rand.Int64N(n-100) + 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkKeyedReadSizes reads n random records one at a time and in
// one keyed read: what cache.Records saves the detail endpoints when
// requests share a read (per op: n records).
func BenchmarkKeyedReadSizes(b *testing.B) {
	s, n := benchDB(b)
	ctx := requestContext(b)
	all := catalog.AllFields(true)
	random := func(k int) []int64 {
		ids := make([]int64, k)
		for i := range ids {
			ids[i] = 1 + rand.Int64N(n)
		}
		return ids
	}
	for _, k := range []int{1, 4, 8, 16} {
		for _, bm := range []struct {
			name string
			read func(ids []int64) error
		}{
			{"GetMovie", func(ids []int64) error {
				for _, id := range ids {
					if _, err := s.GetMovie(ctx, id); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
						return err
					}
				}
				return nil
			}},
			{"MoviesByID", func(ids []int64) error { _, err := s.MoviesByID(ctx, ids, all); return err }},
			{"GetClip", func(ids []int64) error {
				for _, id := range ids {
					if _, err := s.GetClip(ctx, id); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
						return err
					}
				}
				return nil
			}},
			{"ClipsByID", func(ids []int64) error { _, err := s.ClipsByID(ctx, ids); return err }},
		} {
			b.Run(fmt.Sprintf("%s/%d", bm.name, k), func(b *testing.B) {
				for b.Loop() {
					if err := bm.read(random(k)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
