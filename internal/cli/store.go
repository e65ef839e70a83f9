package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/sqlite"
)

// store is a catalog.Store that can bring its schema up to date.
type store interface {
	catalog.Store
	Migrate(ctx context.Context) error
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openStore opens the database named by c and migrates it, so that
// every command works on a fresh database.
func openStore(ctx context.Context, c dbConfig) (store, error) {
	var s store
	var err error
	if isPostgres(c.dsn) {
		s, err = postgres.Open(ctx, c.dsn, postgres.Options{MaxConns: c.maxConns})
	} else {
		s, err = sqlite.Open(ctx, c.dsn, sqlite.Options{MaxReadConns: c.maxConns})
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %s", message(err))
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate database: %s", message(err))
	}
	return s, nil
}

// snapshotDir is where serve keeps the snapshot when --snapshot-dir is
// not set: beside the SQLite file, or in the temp dir for PostgreSQL.
func snapshotDir(dsn string) string {
	if isPostgres(dsn) {
		return filepath.Join(os.TempDir(), "catalog-snapshots")
	}
	return dsn + ".snapshots"
}
