package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/sqlite"
)

// store is a catalog.Store that can bring its schema up to date.
type store interface {
	catalog.Store
	MigrateApplied(ctx context.Context) ([]string, error)
}

// openStore opens the database named by c and migrates it, so that
// every command works on an older schema; a newer one is refused.
func openStore(ctx context.Context, c dbConfig) (store, error) {
	s, _, err := migrateStore(ctx, c)
	return s, err
}

// migrateStore is openStore, returning the migrations it applied. A
// SQLite file that does not exist is created only when c.create is set
// (serve, migrate): any other command on a mistyped --db would work on
// a new empty database and report nothing wrong.
func migrateStore(ctx context.Context, c dbConfig) (store, []string, error) {
	if !c.create && !postgres.IsDSN(c.dsn) {
		if _, err := os.Stat(c.dsn); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("database file %s does not exist: give --db (or CATALOG_DB) the service's database; "+
				"only serve and migrate create one", c.dsn)
		}
	}
	var s store
	var err error
	if postgres.IsDSN(c.dsn) {
		s, err = postgres.Open(ctx, c.dsn, postgres.Options{MaxConns: c.maxConns, StatementTimeout: c.statementTimeout})
	} else {
		s, err = sqlite.Open(ctx, c.dsn, sqlite.Options{MaxReadConns: c.maxConns})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open database: %s", hideDSN(message(err), c.dsn))
	}
	applied, err := s.MigrateApplied(ctx)
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("migrate database: %s", hideDSN(message(err), c.dsn))
	}
	return s, applied, nil
}

// snapshotDir is where serve keeps the snapshot when --snapshot-dir is
// not set: beside the SQLite file, or for PostgreSQL a folder of this
// process's own in the temp dir, removed by cleanup. Instances on one
// host must not share the folder: each swaps its own file in, which
// would pull the file from under the other's readers.
func snapshotDir(dsn string) (dir string, cleanup func(), err error) {
	if !postgres.IsDSN(dsn) {
		return dsn + ".snapshots", func() {}, nil
	}
	dir, err = os.MkdirTemp("", "catalog-snapshots-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// snapshotLockKey is the advisory lock that keeps instances sharing a
// PostgreSQL database from building their snapshots at the same moment.
const snapshotLockKey int64 = 0x736e617073686f74 // "snapshot"

// snapshotLock is the build lock for stores that several instances
// share, nil for those that only one process serves (SQLite).
func snapshotLock(s store) func(ctx context.Context) (func(), bool, error) {
	lock := advisoryLock(s)
	if lock == nil {
		return nil
	}
	return func(ctx context.Context) (func(), bool, error) { return lock(ctx, snapshotLockKey) }
}

// advisoryLock takes a lock key of stores that several instances share,
// nil for those that only one process serves (SQLite).
func advisoryLock(s store) func(ctx context.Context, key int64) (func(), bool, error) {
	if pg, ok := s.(*postgres.Store); ok {
		return pg.TryLock
	}
	return nil
}
