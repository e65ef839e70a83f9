package postgres_test

import (
	"context"
	"database/sql"
	"maps"
	"os"
	"slices"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"catalog/internal/catalog"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/storetest"
)

// TestMaccmsMigrationNumbersExistingCategories: migration 00003 gives
// the movies already stored their types (names numbered in the order of
// the movies, lowest id first), and a hand-written INSERT afterwards
// gets its type from the triggers.
func TestMaccmsMigrationNumbersExistingCategories(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatalf("migrate to 1: %v", err)
	}
	insert := `INSERT INTO movies (id, name, name_fold, categories_json, updated_at) VALUES ($1, $2, $3, $4, now())`
	for _, row := range [][]any{{5, "E", "e", `["Comedy","Drama"]`}, {2, "B", "b", `["Drama","Thai"]`}, {9, "N", "n", `[]`}} {
		if _, err := db.ExecContext(ctx, insert, row...); err != nil {
			t.Fatal(err)
		}
	}

	s := openStore(t, dsn)
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
	if _, err := db.ExecContext(ctx, insert, 7, "H", "h", `["Horror","Thai"]`); err != nil {
		t.Fatal(err)
	}
	if got, want := storetest.VodTypesByMovie(t, s), map[int64]int64{7: 4, 9: 0, 2: 1, 5: 3}; !maps.Equal(got, want) {
		t.Fatalf("types of movies: got %v, want %v", got, want)
	}
}
