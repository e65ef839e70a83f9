//go:build unix

package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"catalog/internal/catalog"

	sqlite3 "modernc.org/sqlite/lib"
)

// Keyed reads map the database file, and a fault in a mapping (what an
// I/O error or a file cut short by another program gives) is an error
// of the read that met it, answered as an unreadable file, not a crash
// of the service; the store goes on reading with other connections.
func TestKeyedReadFaultIsAnError(t *testing.T) {
	ctx := context.Background()
	s := migratedStore(t)
	if err := s.UpsertMovies(ctx, []catalog.Movie{{Name: "m", Slug: "m"}}); err != nil {
		t.Fatal(err)
	}

	var mapped int64
	if err := s.keyed.read(`PRAGMA mmap_size`, nil, func(r *keyedRows) error { return r.Scan(&mapped) }); err != nil {
		t.Fatal(err)
	}
	if mapped <= 0 {
		t.Errorf("a keyed connection's mmap_size is %d, want the file mapped", mapped)
	}

	// A mapping whose file was then cut short: touching it raises SIGBUS.
	f, err := os.Create(filepath.Join(t.TempDir(), "cut"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(2 << 12); err != nil {
		t.Fatal(err)
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, 2<<12, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}

	open := s.keyed.stats(0).OpenConnections
	var sink byte
	err = s.keyed.read(`SELECT id FROM movies`, nil, func(r *keyedRows) error {
		sink += m[1<<12] // faults, as a page of a cut database file would
		return nil
	})
	var ke *keyedError
	if !errors.As(err, &ke) || ke.code != sqlite3.SQLITE_IOERR_READ {
		t.Fatalf("a faulting keyed read returned %v, want an SQLITE_IOERR_READ error", err)
	}
	if code := catalog.ErrorCode(translate(err, "read")); code != catalog.EUNAVAILABLE {
		t.Errorf("a faulting read translates to %q, want %q", code, catalog.EUNAVAILABLE)
	}
	if got := s.keyed.stats(0).OpenConnections; got != open-1 {
		t.Errorf("%d keyed connections open after a fault, want %d (the faulted one given up)", got, open-1)
	}
	fields, err := catalog.ParseFields("id,title", false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.MoviesByID(ctx, []int64{1}, fields)
	if err != nil || len(got) != 1 {
		t.Fatalf("after a fault, MoviesByID = %d movies, %v; want the movie", len(got), err)
	}
}
