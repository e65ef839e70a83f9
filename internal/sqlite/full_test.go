package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// A table whose AUTOINCREMENT is used up answers SQLITE_FULL on every
// insert: that is a clear EUNAVAILABLE naming the cause, never an
// internal error. (Clips and movies number past a used-up sequence
// after the highest id present, storetest's IDs/ceiling; the category
// types, numbered by a trigger, do not.)
func TestFullDatabaseIsAClearError(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "catalog.db")
	s := openStore(t, path)
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`INSERT INTO movie_types (id, name) VALUES (9223372036854775807, 'x')`,
		`DELETE FROM movie_types`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	m := catalog.Movie{Name: "next"}
	m.Lists[0] = catalog.NewList([]string{"A new category"})
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	err = s.UpsertMovies(ctx, []catalog.Movie{m})
	if got := catalog.ErrorCode(err); got != catalog.EUNAVAILABLE {
		t.Fatalf("UpsertMovies with a new category on a used-up sequence: got code %q (%v), want %q", got, err, catalog.EUNAVAILABLE)
	}
	if msg := catalog.ErrorMessage(err); !strings.Contains(msg, "full") || strings.Contains(msg, "(13)") {
		t.Fatalf("message: got %q, want one that says the database is full, without the driver's code", msg)
	}
}
