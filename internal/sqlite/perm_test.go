package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"catalog/internal/catalog"
)

// The database file and the -wal and -shm files SQLite makes beside it
// are created 0600 (they hold the administrators' password hashes),
// whatever the umask lets through; so is a backup.
func TestFilesCreatedOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.db")
	s := openStore(t, path)
	c := catalog.Clip{Title: "x", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := s.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", backup} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s: mode %#o, want 0600", filepath.Base(p), got)
		}
	}
}
