// Package testdb gives tests a fresh, migrated, empty store of the
// engine named by CATALOG_TEST_ENGINE, so that one test suite runs on
// SQLite (the default) and, with CATALOG_TEST_ENGINE=postgres, on
// PostgreSQL:
//
//	CATALOG_TEST_ENGINE=postgres go test ./internal/clipapi/...
//
// PostgreSQL tests also need CATALOG_TEST_POSTGRES (see pgtest) and skip
// with a message that says how to run them when it is unset (under CI they
// fail instead: see testenv).
package testdb

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/sqlite"
)

// EnvVar selects the engine: "sqlite" (or unset) or "postgres".
const EnvVar = "CATALOG_TEST_ENGINE"

// The engines Engine reports.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Engine is the engine the tests run on, for test names and messages.
func Engine() string {
	if e := os.Getenv(EnvVar); e != "" {
		return e
	}
	return SQLite
}

// DB is one fresh, migrated, empty database that the test has to itself.
type DB struct {
	engine string
	dsn    string
}

// New makes a database for the test: a SQLite file in t.TempDir(), or a
// pooled PostgreSQL database emptied again when the test ends.
func New(t testing.TB) DB {
	t.Helper()
	switch e := Engine(); e {
	case SQLite:
		// The file exists and is migrated, as a service's database is:
		// commands other than serve and migrate refuse a missing one.
		d := DB{engine: e, dsn: filepath.Join(t.TempDir(), "test.db")}
		d.Open(t).Close()
		return d
	case Postgres:
		return DB{engine: e, dsn: pgtest.EmptyDSN(t)}
	default:
		t.Fatalf("%s=%q: want %q or %q", EnvVar, e, SQLite, Postgres)
		return DB{}
	}
}

// DSN names the database the way --db does: a file path or a
// postgres:// URL.
func (d DB) DSN() string { return d.dsn }

// Open returns a new handle on the database, migrated and closed when the
// test ends; two handles behave like two processes or instances sharing
// it.
func (d DB) Open(t testing.TB) catalog.Store {
	t.Helper()
	ctx := context.Background()
	var s interface {
		catalog.Store
		Migrate(context.Context) error
	}
	var err error
	if d.engine == Postgres {
		s, err = postgres.Open(ctx, d.dsn, postgres.Options{MaxConns: 8})
	} else {
		s, err = sqlite.Open(ctx, d.dsn, sqlite.Options{})
	}
	if err != nil {
		t.Fatalf("open %s store: %v", d.engine, err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate %s store: %v", d.engine, err)
	}
	return s
}

// Open returns a fresh, migrated, empty store of the chosen engine,
// closed when the test ends.
func Open(t testing.TB) catalog.Store {
	t.Helper()
	return New(t).Open(t)
}
