package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"catalog/internal/postgres"
	"catalog/internal/progress"
	"catalog/internal/sqlite"
)

// backup is "catalog backup": a checked, consistent copy of a live
// SQLite database.
func (p *Program) backup(ctx context.Context, args []string) error {
	var db dbConfig
	var out string
	var force bool
	f := newFlags("backup", "",
		"Copies a SQLite database consistently while serve keeps writing to it (VACUUM INTO),\n"+
			"checks the copy (integrity_check, and the kept counts equal the rows) and only\n"+
			"then renames it to FILE; a failed backup leaves nothing behind. An existing FILE\n"+
			"is kept unless --force is given. Restore: stop serve, remove any -wal and -shm\n"+
			"files beside the database, copy FILE over the database file.\n"+
			"PostgreSQL databases are backed up with pg_dump.")
	f.dbFlags(&db)
	f.stringVar(&out, "out", "CATALOG_BACKUP_OUT", "", "file to write the copy to (required)")
	f.boolVar(&force, "force", "CATALOG_BACKUP_FORCE", false, "replace FILE when it exists")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if postgres.IsDSN(db.dsn) {
		return usagef("backup: catalog backup copies SQLite databases only; back up PostgreSQL with pg_dump (pg_dump --format=custom --file=catalog.dump DBURL) and restore with pg_restore")
	}
	if out == "" || out == "-" {
		return usagef("backup: --out FILE is required (a file, not standard output)")
	}
	if err := checkBackupPaths(db.dsn, out, force); err != nil {
		return err
	}
	// Open without migrating: a backup copies the database as it is.
	st, err := sqlite.Open(ctx, db.dsn, sqlite.Options{MaxReadConns: 1})
	if err != nil {
		return fmt.Errorf("backup: open database: %s", message(err))
	}
	defer st.Close()

	start := time.Now()
	var counts sqlite.BackupCounts
	err = replaceFile(out, force, 0o600, func(tmp string) error {
		// SQLite may leave a rollback journal beside a copy it could not
		// finish.
		defer os.Remove(tmp + "-journal")
		if err := st.Backup(ctx, tmp); err != nil {
			return err
		}
		counts, err = sqlite.VerifyBackup(ctx, tmp)
		return err
	})
	if err != nil {
		return fmt.Errorf("backup: %s", message(err))
	}
	size := int64(0)
	if fi, err := os.Stat(out); err == nil {
		size = fi.Size()
	}
	_, err = fmt.Fprintf(p.Stdout, "backup written to %s: %d clips, %d movies, %s, checked, in %s\n",
		out, counts.Clips, counts.Movies, progress.FormatBytes(size), time.Since(start).Round(time.Millisecond))
	return err
}

// checkBackupPaths refuses a database that is not a regular file and an
// --out that cannot take the copy: a directory, a device or a pipe, the
// database itself, or a file that exists when force is not given.
func checkBackupPaths(dsn, out string, force bool) error {
	src, err := os.Stat(dsn)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("backup: database file %s does not exist", dsn)
	case err != nil:
		return fmt.Errorf("backup: %s", err)
	case !src.Mode().IsRegular():
		return fmt.Errorf("backup: %s is not a database file", dsn)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return nil
	}
	switch {
	case fi.IsDir():
		return usagef("backup: --out %s is a directory; name the backup file", out)
	case !fi.Mode().IsRegular():
		return usagef("backup: --out %s is not a regular file (a device or a pipe); name the backup file", out)
	case os.SameFile(fi, src):
		return usagef("backup: --out %s is the database itself", out)
	case !force:
		return fmt.Errorf("backup: %s already exists; give --force to replace it", out)
	}
	return nil
}
