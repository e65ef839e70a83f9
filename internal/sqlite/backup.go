package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"catalog/internal/catalog"
)

// BackupCounts are what a verified backup holds.
type BackupCounts struct {
	Clips, Movies int64
}

// Backup writes a consistent copy of the database to path, which must
// be absent or an empty file, with VACUUM INTO: SQLite copies one read
// transaction's view, so writers (serve, an import) go on meanwhile and
// the copy holds every transaction committed before it began and none
// after. The copy is compact and in rollback-journal mode, so it is one
// self-contained file. Backup does not verify the copy; VerifyBackup
// does.
func (s *Store) Backup(ctx context.Context, path string) error {
	// The reader pool is query_only, which refuses VACUUM INTO; one
	// connection of its own keeps the writer free for this process.
	db, err := sql.Open("sqlite", "file:"+escapePath(s.path)+"?"+pragmas)
	if err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// The copy holds what the database holds: owner-only, as the
	// database (VACUUM INTO accepts an empty file).
	if err := createPrivate(path); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return translate(err, "back up the database")
	}
	return newCopyIdentity(ctx, path)
}

// newCopyIdentity gives the copy at path an identity of its own
// (Identity): restored, it is another database than the one whose
// search index files were written since, so they are not used with it.
func newCopyIdentity(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+escapePath(path)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("open the copy: %w", err)
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `PRAGMA user_version = `+strconv.FormatInt(newIdentity(), 10))
	return translate(err, "back up the database")
}

// VerifyBackup opens the copy at path read-only and checks it: SQLite's
// integrity_check passes, and the counts that triggers keep (movies in
// meta, clips per platform in clip_counts) equal the rows, which holds
// only for a copy of one consistent moment.
func VerifyBackup(ctx context.Context, path string) (BackupCounts, error) {
	var c BackupCounts
	db, err := sql.Open("sqlite", "file:"+escapePath(path)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return c, fmt.Errorf("open the copy: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return c, catalog.Reworded("check the copy: "+oneLine(err), err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return c, catalog.Reworded("check the copy: "+oneLine(err), err)
		}
		problems = append(problems, line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return c, catalog.Reworded("check the copy: "+oneLine(err), err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		return c, fmt.Errorf("the copy fails integrity_check: %v", problems)
	}
	var movieCounter, clipCounter int64
	err = db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM clips), (SELECT coalesce(sum(n), 0) FROM clip_counts),
		(SELECT count(*) FROM movies), (SELECT movie_count FROM meta WHERE id = 1)`).
		Scan(&c.Clips, &clipCounter, &c.Movies, &movieCounter)
	if err != nil {
		return c, catalog.Reworded("count the copy: "+oneLine(err), err)
	}
	if c.Clips != clipCounter || c.Movies != movieCounter {
		return c, fmt.Errorf("the copy is inconsistent: %d clips (counter %d), %d movies (counter %d)",
			c.Clips, clipCounter, c.Movies, movieCounter)
	}
	return c, nil
}
