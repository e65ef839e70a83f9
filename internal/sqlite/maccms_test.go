package sqlite_test

import (
	"context"
	"database/sql"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite"

	"catalog/internal/catalog"
	"catalog/internal/storetest"
)

// TestMaccmsMigrationNumbersExistingCategories: migration 00003 gives
// the movies already stored their types (names numbered in the order of
// the movies, lowest id first), and a hand-written INSERT afterwards
// gets its type from the triggers.
func TestMaccmsMigrationNumbersExistingCategories(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatalf("migrate to 1: %v", err)
	}
	insert := `INSERT INTO movies (id, name, name_fold, categories_json, updated_at) VALUES (?, ?, ?, ?, ?)`
	for _, row := range [][]any{{5, "E", "e", `["Comedy","Drama"]`, 100}, {2, "B", "b", `["Drama","Thai"]`, 200}, {9, "N", "n", `[]`, 300}} {
		if _, err := db.ExecContext(ctx, insert, row...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openStore(t, path)
	types, err := s.VodTypes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []catalog.VodType{{ID: 1, Name: "Drama"}, {ID: 2, Name: "Thai"}, {ID: 3, Name: "Comedy"}}
	if !slices.Equal(types, want) {
		t.Fatalf("types after the migration: got %v, want %v", types, want)
	}
	if got, want := storetest.VodTypesByMovie(t, s), map[int64]int64{9: 0, 2: 1, 5: 3}; !maps.Equal(got, want) {
		t.Fatalf("types of movies: got %v, want %v", got, want)
	}

	db2, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if _, err := db2.ExecContext(ctx, insert, 7, "H", "h", `["Horror","Thai"]`, 400); err != nil {
		t.Fatal(err)
	}
	if got, want := storetest.VodTypesByMovie(t, s), map[int64]int64{7: 4, 9: 0, 2: 1, 5: 3}; !maps.Equal(got, want) {
		t.Fatalf("types of movies: got %v, want %v", got, want)
	}
}
