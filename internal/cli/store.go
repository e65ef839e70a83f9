package cli

import (
	"context"
	"fmt"
	"os"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/sqlite"
)

// store is a catalog.Store that can bring its schema up to date.
type store interface {
	catalog.Store
	Migrate(ctx context.Context) error
}

func isPostgres(dsn string) bool { return postgres.IsDSN(dsn) }

// openStore opens the database named by c and migrates it, so that
// every command works on a fresh database.
func openStore(ctx context.Context, c dbConfig) (store, error) {
	var s store
	var err error
	if isPostgres(c.dsn) {
		s, err = postgres.Open(ctx, c.dsn, postgres.Options{MaxConns: c.maxConns, StatementTimeout: c.statementTimeout})
	} else {
		s, err = sqlite.Open(ctx, c.dsn, sqlite.Options{MaxReadConns: c.maxConns})
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %s", hideDSN(message(err), c.dsn))
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate database: %s", hideDSN(message(err), c.dsn))
	}
	return s, nil
}

// snapshotDir is where serve keeps the snapshot when --snapshot-dir is
// not set: beside the SQLite file, or for PostgreSQL a folder of this
// process's own in the temp dir, removed by cleanup. Instances on one
// host must not share the folder: each swaps its own file in, which
// would pull the file from under the other's readers.
func snapshotDir(dsn string) (dir string, cleanup func(), err error) {
	if !isPostgres(dsn) {
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
	return advisoryLock(s, snapshotLockKey)
}

// advisoryLock is the lock key of stores that several instances share,
// nil for those that only one process serves (SQLite).
func advisoryLock(s store, key int64) func(ctx context.Context) (func(), bool, error) {
	pg, ok := s.(*postgres.Store)
	if !ok {
		return nil
	}
	return func(ctx context.Context) (func(), bool, error) { return pg.TryLock(ctx, key) }
}
