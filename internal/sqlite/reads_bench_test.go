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
// skips: the per-request reads are only worth timing at full size. It
// returns the numbers of movies and of clips (ids from 1 up: a seeded
// file, with movies imported on top).
func benchDB(b *testing.B) (s *sqlite.Store, movies, clips int64) {
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
	if movies, err = s.CountMovies(ctx); err != nil || movies == 0 {
		b.Fatalf("CountMovies: %d, %v", movies, err)
	}
	if clips, err = s.CountClips(ctx); err != nil || clips == 0 {
		b.Fatalf("CountClips: %d, %v", clips, err)
	}
	return s, movies, clips
}

// The request's context is cancellable, as a server's is.
func requestContext(b *testing.B) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	return ctx
}

func BenchmarkSeededReads(b *testing.B) {
	s, movies, clips := benchDB(b)
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
	// spread is a page of 20 ids 5 apart from id down: a filtered deep
	// page of a value one movie in five has (bench/run.sh's actor).
	spread := func(id int64) []int64 {
		ids := make([]int64, 20)
		for i := range ids {
			ids[i] = id - 5*int64(i)
		}
		return ids
	}
	titled, err := catalog.ParseFields("id,title,year", false)
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range []struct {
		name string
		n    int64 // ids are drawn from 21 to n
		read func(id int64) error
	}{
		{"DataVersion", movies, func(int64) error { _, err := s.DataVersion(ctx); return err }},
		{"GetClip", clips, func(id int64) error { _, err := s.GetClip(ctx, id); return err }},
		{"GetMovie", movies, func(id int64) error { _, err := s.GetMovie(ctx, id); return err }},
		{"ClipsByID", clips, func(id int64) error { _, err := s.ClipsByID(ctx, page(id)); return err }},
		{"MoviesByID/short", movies, func(id int64) error { _, err := s.MoviesByID(ctx, page(id), short); return err }},
		{"MoviesByID/all", movies, func(id int64) error { _, err := s.MoviesByID(ctx, page(id), all); return err }},
		{"MoviesByID/spread", movies - 80, func(id int64) error { _, err := s.MoviesByID(ctx, spread(id+80), titled); return err }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bm.read(21 + rand.Int64N(bm.n-20)); err != nil {
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
	s, movies, clips := benchDB(b)
	ctx := requestContext(b)
	all := catalog.AllFields(true)
	random := func(k int, n int64) []int64 {
		ids := make([]int64, k)
		for i := range ids {
			ids[i] = 1 + rand.Int64N(n)
		}
		return ids
	}
	for _, k := range []int{1, 4, 8, 16} {
		for _, bm := range []struct {
			name string
			n    int64 // ids are drawn from 1 to n
			read func(ids []int64) error
		}{
			{"GetMovie", movies, func(ids []int64) error {
				for _, id := range ids {
					if _, err := s.GetMovie(ctx, id); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
						return err
					}
				}
				return nil
			}},
			{"MoviesByID", movies, func(ids []int64) error { _, err := s.MoviesByID(ctx, ids, all); return err }},
			{"GetClip", clips, func(ids []int64) error {
				for _, id := range ids {
					if _, err := s.GetClip(ctx, id); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
						return err
					}
				}
				return nil
			}},
			{"ClipsByID", clips, func(ids []int64) error { _, err := s.ClipsByID(ctx, ids); return err }},
		} {
			b.Run(fmt.Sprintf("%s/%d", bm.name, k), func(b *testing.B) {
				for b.Loop() {
					if err := bm.read(random(k, bm.n)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
