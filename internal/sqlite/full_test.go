package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// A database whose AUTOINCREMENT is used up (an id of 2^63-1 imported
// before ids were checked) answers SQLITE_FULL on every insert: that is a
// clear EUNAVAILABLE naming the cause, never an internal error.
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
		`INSERT INTO clips (id, title, title_fold, iframe_url, created_at) VALUES (9223372036854775807, 'x', 'x', 'https://example.com/v', 0)`,
		`DELETE FROM clips`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c := catalog.Clip{Title: "next", IframeURL: "https://example.com/w"}
	err = s.CreateClip(ctx, &c)
	if got := catalog.ErrorCode(err); got != catalog.EUNAVAILABLE {
		t.Fatalf("CreateClip on a used-up sequence: got code %q (%v), want %q", got, err, catalog.EUNAVAILABLE)
	}
	if msg := catalog.ErrorMessage(err); !strings.Contains(msg, "full") || strings.Contains(msg, "(13)") {
		t.Fatalf("message: got %q, want one that says the database is full, without the driver's code", msg)
	}
}
