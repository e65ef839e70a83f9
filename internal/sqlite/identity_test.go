package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIdentityOfCopies: a second handle on the file, and a copy of the
// file made while it is closed, name the same database; a backup names
// another (restored, it must not be matched with search index files
// written since).
func TestIdentityOfCopies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	s := openStore(t, path)
	id, err := s.Identity(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	other := openStore(t, path)
	if got, err := other.Identity(t.Context()); err != nil || got != id {
		t.Fatalf("second handle: %q, %v; want %q", got, err, id)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := s.Backup(t.Context(), backup); err != nil {
		t.Fatal(err)
	}
	if got, err := openStore(t, backup).Identity(t.Context()); err != nil || got == id {
		t.Fatalf("backup: %q, %v; want an identity other than %q", got, err, id)
	}
	s.Close()
	other.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(copied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := openStore(t, copied).Identity(t.Context()); err != nil || got != id {
		t.Fatalf("copy of the file: %q, %v; want %q", got, err, id)
	}
}
