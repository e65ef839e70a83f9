package sqlite_test

import (
	"context"
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
	clips, total := storetest.Clips(t, server, catalog.ClipFilter{Terms: catalog.SearchTerms("another")})
	if total != 1 || len(clips) != 1 {
		t.Fatalf("other handle's clip: got %d clips, total %d; want 1, 1", len(clips), total)
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
