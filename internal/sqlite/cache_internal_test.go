package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"catalog/internal/catalog"
)

// The writer's page cache is 64 MiB only inside a bulk write and back
// to SQLite's 2 MiB default after it, whether the write commits or not.
func TestWriterCacheOnlyDuringBulkWrites(t *testing.T) {
	ctx := context.Background()
	s := migratedStore(t)
	cacheSize := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int64 {
		t.Helper()
		var n int64
		if err := q.QueryRowContext(ctx, `PRAGMA cache_size`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const idle, bulk = -2000, -65536
	if got := cacheSize(s.writer); got != idle {
		t.Fatalf("writer cache_size after Open = %d, want %d", got, idle)
	}
	failed := errors.New("batch refused")
	for _, result := range []error{nil, failed} {
		var during int64
		err := s.bulkTx(ctx, "test", func(tx *sql.Tx) error {
			during = cacheSize(tx)
			return result
		})
		if !errors.Is(err, result) {
			t.Fatalf("bulkTx = %v, want %v", err, result)
		}
		if during != bulk {
			t.Errorf("cache_size inside a bulk write = %d, want %d", during, bulk)
		}
		if got := cacheSize(s.writer); got != idle {
			t.Errorf("cache_size after a bulk write ending in %v = %d, want %d", result, got, idle)
		}
	}
	clips := []catalog.Clip{{Title: "A", IframeURL: "https://x.example/a"}}
	if err := s.ImportClips(ctx, clips); err != nil {
		t.Fatal(err)
	}
	movies := []catalog.Movie{{Name: "M"}}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	if got := cacheSize(s.writer); got != idle {
		t.Errorf("cache_size after an import = %d, want %d", got, idle)
	}
}
