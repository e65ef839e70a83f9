package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
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

func TestTwoHandlesShareDataVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	server := openStore(t, path)
	importer := openStore(t, path) // e.g. `catalog import` while `serve` runs

	before, err := server.DataVersion(ctx)
	if err != nil {
		t.Fatalf("DataVersion: %v", err)
	}
	c := catalog.Clip{Title: "from another process", IframeURL: "https://example.com/v"}
	if err := importer.ImportClips(ctx, []catalog.Clip{c}); err != nil {
		t.Fatalf("ImportClips: %v", err)
	}
	after, err := server.DataVersion(ctx)
	if err != nil {
		t.Fatalf("DataVersion: %v", err)
	}
	if after == before {
		t.Fatalf("DataVersion seen by the other handle: got %d unchanged, want a new value", after)
	}
	clips, total, err := server.ListClips(ctx, catalog.ClipFilter{Terms: catalog.SearchTerms("another"), Paging: catalog.Paging{Page: 1, Limit: 10}})
	if err != nil || total != 1 || len(clips) != 1 {
		t.Fatalf("other handle's clip: got %d clips, total %d, err %v; want 1, 1, nil", len(clips), total, err)
	}
}

func TestOpenBadPath(t *testing.T) {
	missingDir := filepath.Join(t.TempDir(), "no", "such", "dir", "catalog.db")
	tests := []struct {
		name, path string
	}{
		{"missing directory", missingDir},
		{"a directory", t.TempDir()},
		{"empty", ""},
		{"memory", ":memory:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sqlite.Open(context.Background(), tt.path, sqlite.Options{})
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q): got nil error, want a failure", tt.path)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Fatalf("Open(%q): got a multi-line error %q, want one line", tt.path, msg)
			}
			if tt.path != "" && !strings.Contains(msg, tt.path) {
				t.Fatalf("Open(%q): got %q, want the path in the message", tt.path, msg)
			}
		})
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "catalog.db")
	s := openStore(t, path)
	c := catalog.Clip{Title: "kept", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatalf("CreateClip: %v", err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	again := openStore(t, path)
	if got, err := again.GetClip(ctx, c.ID); err != nil || got != c {
		t.Fatalf("after re-migrating: got %+v, %v; want %+v", got, err, c)
	}
}

func TestOpenWithoutMigrateThenMigrate(t *testing.T) {
	// Statements are prepared lazily, so a store opened before the
	// schema exists works once Migrate has run.
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "late.db"), sqlite.Options{MaxReadConns: 2})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := s.DataVersion(ctx); err == nil {
		t.Fatalf("DataVersion before Migrate: got nil error, want one")
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	if _, err := s.DataVersion(ctx); err != nil {
		t.Fatalf("DataVersion after Migrate: %v", err)
	}
}

func TestErrorsHideSQL(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "catalog.db"))
	a := catalog.Admin{Username: "alice", PasswordHash: "h"}
	if err := s.CreateAdmin(ctx, &a); err != nil {
		t.Fatalf("CreateAdmin: %v", err)
	}
	dup := catalog.Admin{Username: "alice", PasswordHash: "h"}
	err := s.CreateAdmin(ctx, &dup)
	if code := catalog.ErrorCode(err); code != catalog.ECONFLICT {
		t.Fatalf("duplicate admin: got code %q, want %q", code, catalog.ECONFLICT)
	}
	for _, bad := range []string{"UNIQUE", "constraint", "admins", "INSERT"} {
		if msg := catalog.ErrorMessage(err); strings.Contains(msg, bad) {
			t.Fatalf("client message %q leaks %q", msg, bad)
		}
	}
}

// TestSearchIndexIntegrity runs FTS5's own check after every kind of
// write, including rows written by a plain SQL client that never
// flushes the pending list (another tool on the same file).
func TestSearchIndexIntegrity(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "catalog.db")
	s := openStore(t, path)
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	check := func(step string) {
		t.Helper()
		for _, table := range []string{"clips_fts", "movies_fts"} {
			if _, err := raw.Exec(`INSERT INTO ` + table + ` (` + table + `) VALUES ('integrity-check')`); err != nil {
				t.Fatalf("after %s: %s integrity-check: %v", step, table, err)
			}
		}
	}
	search := func(q string) int64 {
		t.Helper()
		_, total, err := s.ListClips(ctx, catalog.ClipFilter{Terms: catalog.SearchTerms(q), Paging: catalog.Paging{Page: 1, Limit: 10}})
		if err != nil {
			t.Fatalf("ListClips: %v", err)
		}
		return total
	}

	c := catalog.Clip{Title: "Alpha one", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	check("create")
	if _, err := s.UpdateClip(ctx, c.ID, func(c *catalog.Clip) error { c.Title = "Bravo two"; return nil }); err != nil {
		t.Fatal(err)
	}
	check("update")
	if err := s.ImportClips(ctx, []catalog.Clip{{ID: c.ID, Title: "Charlie three", IframeURL: "https://example.com/v"}, {Title: "Delta four", IframeURL: "https://example.com/v"}}); err != nil {
		t.Fatal(err)
	}
	check("import")
	if err := s.DeleteClip(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	check("delete")

	// Rows from a writer that does not flush: one stays, one is renamed
	// while pending, one is deleted while pending.
	for _, q := range []string{
		`INSERT INTO clips (title, title_fold, iframe_url, created_at) VALUES ('Echo five', 'echo five', 'https://example.com/v', 0)`,
		`INSERT INTO clips (title, title_fold, iframe_url, created_at) VALUES ('Foxtrot six', 'foxtrot six', 'https://example.com/v', 0)`,
		`UPDATE clips SET title = 'Golf seven', title_fold = 'golf seven' WHERE title = 'Foxtrot six'`,
		`INSERT INTO clips (title, title_fold, iframe_url, created_at) VALUES ('Hotel eight', 'hotel eight', 'https://example.com/v', 0)`,
		`DELETE FROM clips WHERE title = 'Hotel eight'`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	next := catalog.Clip{Title: "India nine", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &next); err != nil { // flushes the pending rows
		t.Fatal(err)
	}
	check("foreign writer")
	for q, want := range map[string]int64{"alpha": 0, "bravo": 0, "charlie": 0, "delta": 1, "echo": 1, "foxtrot": 0, "golf": 1, "hotel": 0, "india": 1} {
		if got := search(q); got != want {
			t.Errorf("search %q: got total %d, want %d", q, got, want)
		}
	}

	m := []catalog.Movie{{Name: "Movie One", Slug: "movie-one"}, {Name: "Movie Two", Slug: "movie-two"}}
	if err := s.UpsertMovies(ctx, m); err != nil {
		t.Fatal(err)
	}
	m[0].Name = "Movie Renamed"
	if err := s.UpsertMovies(ctx, m[:1]); err != nil {
		t.Fatal(err)
	}
	check("movies")
}

func TestListBudget(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "budget.db"))
	storetest.RunListBudget(t, s, func() func() { return sqlite.FillListBudget(s) })
}

func TestStreamsKeepOffRequestReads(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"), sqlite.Options{MaxReadConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	storetest.RunStreams(t, s)
}
