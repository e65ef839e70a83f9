package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
	"catalog/internal/storetest"
)

// openStore opens a fresh, migrated store on a new file in t.TempDir().
func openStore(tb testing.TB, path string) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) catalog.Store {
		return openStore(t, filepath.Join(t.TempDir(), "catalog.db"))
	})
}
