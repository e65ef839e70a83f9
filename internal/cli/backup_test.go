package cli_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/importer"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/sqlite"
)

// TestBackupWhileWriting takes backups while another store on the same
// file imports movies and adds clips without pause, then checks each
// copy: integrity_check passes, the trigger-kept counts equal the rows
// (a torn copy would differ), and the copy holds a prefix of what was
// written.
func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writer, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if err := writer.Migrate(ctx); err != nil {
		t.Fatal(err)
	}

	three := make(chan struct{}) // closed once three batches are committed
	done := make(chan error, 1)
	go func() {
		platforms, _ := catalog.ParsePlatforms(strings.Join(catalog.DefaultPlatforms(), ","))
		for i := 0; ctx.Err() == nil; i++ {
			var b strings.Builder
			for j := range 200 {
				fmt.Fprintf(&b, `{"name": "Movie %d-%d", "id_code": "B-%d-%d", "categories": ["Drama"]}`+"\n", i, j, i, j)
			}
			if _, err := importer.Movies(ctx, writer, "batch.jsonl", strings.NewReader(b.String()), importer.Options{BatchSize: 50}); err != nil {
				done <- nilIfCancelled(ctx, err)
				return
			}
			clip := fmt.Sprintf(`{"title": "Clip %d", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ", "platform": "JAV"}`, i)
			if _, err := importer.Clips(ctx, writer, platforms, "c.jsonl", strings.NewReader(clip), importer.Options{}); err != nil {
				done <- nilIfCancelled(ctx, err)
				return
			}
			if i == 2 {
				close(three)
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		t.Fatalf("writer stopped: %v", err)
	case <-three:
	}

	var last int64
	for i := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("copy-%d.db", i))
		r := run(t, nil, "", "backup", "--db", db, "--out", out)
		wantExit(t, r, 0)
		if !strings.Contains(r.stdout, "backup written to "+out) || !strings.Contains(r.stdout, "checked") {
			t.Errorf("summary: got %q", r.stdout)
		}
		counts := checkCopy(t, out)
		if counts.Movies < 600 || counts.Movies < last || counts.Movies%50 != 0 {
			t.Errorf("copy %d holds %d movies (before: %d): want a growing count of whole 50-movie transactions", i, counts.Movies, last)
		}
		last = counts.Movies
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("backup file mode: got %v (%v), want 0600 (it holds password hashes)", fi.Mode().Perm(), err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("writer: %v", err)
	}
	wantNoTemp(t, dir)
}

func nilIfCancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// checkCopy checks a backup on its own, the way an operator would:
// SQLite's integrity check, and the kept counts against the rows.
func checkCopy(t *testing.T, path string) sqlite.BackupCounts {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of %s: got %q, %v; want ok", path, check, err)
	}
	var c sqlite.BackupCounts
	var movieCounter, clipCounter int64
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM movies), (SELECT movie_count FROM meta),
		(SELECT count(*) FROM clips), (SELECT coalesce(sum(n), 0) FROM clip_counts)`).
		Scan(&c.Movies, &movieCounter, &c.Clips, &clipCounter); err != nil {
		t.Fatal(err)
	}
	if c.Movies != movieCounter || c.Clips != clipCounter {
		t.Fatalf("copy %s: %d movies (counter %d), %d clips (counter %d): want equal", path, c.Movies, movieCounter, c.Clips, clipCounter)
	}
	return c
}

// wantNoTemp fails when a backup's temporary file is left in dir.
func wantNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestBackupRefusals: every failure exits with one line and leaves
// nothing behind; an existing file is kept unless --force; PostgreSQL
// exits 2 pointing to pg_dump.
func TestBackupRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "src.db"))
	wantExit(t, run(t, nil, "", "seed", "--db", db, "--movies", "20", "--clips", "5", "--quiet"), 0)
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no --out", []string{"--db", db}, 2, "--out FILE is required"},
		{"out is a directory", []string{"--db", db, "--out", dir}, 2, "is a directory"},
		{"out is the database", []string{"--db", db, "--out", db}, 2, "is the database itself"},
		{"out exists", []string{"--db", db, "--out", existing}, 1, "already exists; give --force"},
		{"missing folder", []string{"--db", db, "--out", filepath.Join(dir, "no", "b.db")}, 1, "backup:"},
		{"missing database", []string{"--db", filepath.Join(dir, "none.db"), "--out", filepath.Join(dir, "b.db")}, 1, "does not exist"},
		{"postgres", []string{"--db", "postgres://user:secret@127.0.0.1:1/db", "--out", filepath.Join(dir, "b.db")}, 2, "pg_dump"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, "", append([]string{"backup"}, tc.args...)...)
			wantExit(t, r, tc.code)
			if !strings.Contains(r.err.Error(), tc.want) {
				t.Errorf("error: got %q, want it to contain %q", r.err, tc.want)
			}
			if strings.Contains(r.err.Error(), "secret") {
				t.Errorf("error shows the password: %q", r.err)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("existing file changed without --force")
	}
	wantOnly(t, dir, "src.db", "src.db-shm", "src.db-wal", "existing.db")

	// --force replaces the file, atomically.
	wantExit(t, run(t, nil, "", "backup", "--db", db, "--out", existing, "--force"), 0)
	if c := checkCopy(t, existing); c.Movies != 20 || c.Clips != 5 {
		t.Errorf("forced backup: got %+v, want 20 movies and 5 clips", c)
	}
	wantNoTemp(t, dir)

	// A copy that fails its check (a SQLite file that is not a catalog:
	// no counts to compare) is removed, and nothing else is written.
	other := filepath.Join(dir, "other.db")
	odb, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := odb.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')`); err != nil {
		t.Fatal(err)
	}
	odb.Close()
	out := filepath.Join(dir, "other-copy.db")
	r := run(t, nil, "", "backup", "--db", other, "--out", out)
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), "count the copy") {
		t.Errorf("error: got %q, want the failed check", r.err)
	}
	wantOnly(t, dir, "src.db", "src.db-shm", "src.db-wal", "existing.db", "other.db")
}

// TestBackupPostgresNeedsNoServer: the pointer to pg_dump comes before
// any connection, so it works with the real server too.
func TestBackupPostgresNeedsNoServer(t *testing.T) {
	t.Parallel()
	r := run(t, map[string]string{"CATALOG_DB": pgtest.EmptyDSN(t)}, "", "backup", "--out", filepath.Join(t.TempDir(), "b.db"))
	wantExit(t, r, 2)
	if strings.Count(r.err.Error(), "\n") != 0 || !strings.Contains(r.err.Error(), "pg_dump") {
		t.Errorf("got %q, want one line pointing to pg_dump", r.err)
	}
}
