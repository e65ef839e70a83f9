package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/postgres"
)

// Creating and migrating a database costs about a second, far more than
// most tests that need one. EmptyDSN therefore lends migrated databases
// from a pool kept for the life of the test process and empties each
// one when its test ends. The pool is process-wide state on purpose: it
// is what makes the databases reusable across tests and packages' test
// helpers, and it lives only in test binaries.
var pool struct {
	mu     sync.Mutex
	once   sync.Once
	err    error
	prefix string    // this process's database names start with it
	holder *pgx.Conn // holds the advisory lock that marks the pool alive
	made   int
	free   []string // DSNs of empty, migrated databases
}

// poolPrefix starts every pooled database's name; the rest identifies
// the process that made it.
const poolPrefix = "catalog_pool_"

// EmptyDSN returns the DSN of a migrated, empty database (no rows, ids
// starting at 1) that the test has to itself until it ends, skipping the
// test when CATALOG_TEST_POSTGRES is not set. The data version is not
// reset: it only ever grows, as in production.
func EmptyDSN(t testing.TB) string {
	t.Helper()
	server := ServerDSN(t)
	pool.once.Do(func() { pool.err = startPool(server) })
	if pool.err != nil {
		t.Fatalf("test database pool: %v", pool.err)
	}
	pool.mu.Lock()
	var dsn string
	if n := len(pool.free); n > 0 {
		dsn = pool.free[n-1]
		pool.free = pool.free[:n-1]
	} else {
		pool.made++
		name := fmt.Sprintf("%s%s_%d", poolPrefix, pool.prefix, pool.made)
		pool.mu.Unlock()
		dsn = createMigrated(t, server, name)
		pool.mu.Lock()
	}
	pool.mu.Unlock()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := Empty(ctx, dsn); err != nil {
			// A database that cannot be emptied is not lent again.
			t.Errorf("empty test database: %v", err)
			return
		}
		pool.mu.Lock()
		pool.free = append(pool.free, dsn)
		pool.mu.Unlock()
	})
	return dsn
}

// startPool names this process's pool and marks it alive with a
// session-level advisory lock held until the process exits; databases of
// pools whose lock is free belong to finished processes and are dropped,
// so a long-lived development server does not fill up.
func startPool(server string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var b [6]byte
	_, _ = rand.Read(b[:])
	pool.prefix = hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", EnvVar, err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext($1))`, poolPrefix+pool.prefix); err != nil {
		conn.Close(ctx)
		return err
	}
	pool.holder = conn
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE datname LIKE $1`, poolPrefix+"%")
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, name := range names {
		owner, _, ok := strings.Cut(strings.TrimPrefix(name, poolPrefix), "_")
		if !ok || owner == pool.prefix {
			continue
		}
		var free bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, poolPrefix+owner).Scan(&free); err != nil {
			return err
		}
		if !free {
			continue
		}
		_, _ = conn.Exec(ctx, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`)
		_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, poolPrefix+owner)
	}
	return nil
}

// createMigrated creates the database name on the server and migrates it.
func createMigrated(t testing.TB, server, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvVar, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE DATABASE "`+name+`"`); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", EnvVar, err)
	}
	u.Path = "/" + name
	dsn := u.String()
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate test database: %v", err)
	}
	return dsn
}

// Empty makes a migrated database as good as new: every table but the
// migration record and the singleton rows is emptied with its ids
// restarted, and the counters go to zero (the TRUNCATE triggers). Tables
// are found in the catalog, so that a later migration's tables are
// emptied too.
func Empty(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT quote_ident(tablename) FROM pg_tables
		WHERE schemaname = current_schema() AND tablename NOT IN ('goose_db_version', 'meta', 'movie_count')`)
	if err != nil {
		return err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(tables) == 0 {
		return nil
	}
	_, err = conn.Exec(ctx, `TRUNCATE `+strings.Join(tables, ", ")+` RESTART IDENTITY CASCADE`)
	return err
}
