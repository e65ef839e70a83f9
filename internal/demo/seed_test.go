package demo_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"catalog/internal/demo"
	"catalog/internal/sqlite"
)

func openSQLite(tb testing.TB) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "seed.db"), sqlite.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestSeed(t *testing.T) {
	s := openSQLite(t)
	ctx := context.Background()
	g := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	if err := demo.SeedClips(ctx, s, g, demo.BatchSize+3); err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedMovies(ctx, s, g, 7); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.CountMovies(ctx); n != 7 {
		t.Errorf("movies: got %d, want 7", n)
	}
	if c, err := s.GetClip(ctx, demo.BatchSize+3); err != nil || c.Title == "" {
		t.Errorf("clip %d: got %+v, %v", demo.BatchSize+3, c, err)
	}
}

// Per-record cost of seeding into SQLite (store included).
func BenchmarkSeedClipsSQLite(b *testing.B) {
	s := openSQLite(b)
	g := demo.NewGenerator(1, platforms(b), from, time.Second, 0)
	b.ResetTimer()
	if err := demo.SeedClips(context.Background(), s, g, b.N); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkSeedMoviesSQLite(b *testing.B) {
	s := openSQLite(b)
	g := demo.NewGenerator(1, platforms(b), from, time.Second, 0)
	b.ResetTimer()
	if err := demo.SeedMovies(context.Background(), s, g, b.N); err != nil {
		b.Fatal(err)
	}
}
