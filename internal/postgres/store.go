// Package postgres is the PostgreSQL engine of the catalog: a
// catalog.Store over a pgx connection pool, so that several catalog
// instances can share one database. It behaves exactly like
// internal/sqlite (internal/storetest runs against both).
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"golang.org/x/sync/semaphore"

	"catalog/internal/catalog"
	"catalog/internal/schema"
	"catalog/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ConnectTimeout bounds how long Open waits for the server before it
// gives up with a one-line reason.
const ConnectTimeout = 5 * time.Second

// migrationLockID keeps concurrent migrations of one database apart
// (a session-level advisory lock).
const migrationLockID int64 = 0x636174616c6f67 // "catalog"

// Options tunes the store.
type Options struct {
	// MaxConns is the pool size; 0 picks 4 per CPU, between 4 and 32.
	MaxConns int
	// StatementTimeout is every connection's statement_timeout (0: the
	// server's own), so that the server stops a statement even when the
	// client's cancellation does not reach it. Migrate and EachMovie
	// lift it for their long statements.
	StatementTimeout time.Duration
}

// Store is a catalog.Store on PostgreSQL.
type Store struct {
	sqlstore.Methods // the methods both engines share, over db
	pool             *pgxpool.Pool
	// streams are the connections of whole-table streams and of the
	// snapshot lock; rowStreams bounds the row streams (see streams.go).
	streams    *pgxpool.Pool
	rowStreams *semaphore.Weighted
}

var _ catalog.Store = (*Store)(nil)

// IsDSN reports whether dsn names a PostgreSQL database (a postgres://
// or postgresql:// URL, in any case) rather than a SQLite file.
func IsDSN(dsn string) bool {
	for _, p := range []string{"postgres://", "postgresql://"} {
		if len(dsn) >= len(p) && strings.EqualFold(dsn[:len(p)], p) {
			return true
		}
	}
	return false
}

// Open connects to the database named by dsn and checks that it answers.
// When the server is unreachable or refuses the credentials it fails
// within about ConnectTimeout with a one-line reason that names the
// server but never the password.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("postgres: invalid database URL (want postgres://user:password@host:port/dbname?sslmode=...)")
	}
	if cfg.ConnConfig.ConnectTimeout <= 0 || cfg.ConnConfig.ConnectTimeout > ConnectTimeout {
		cfg.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	cfg.MaxConns = int32(defaultMaxConns(opts.MaxConns))
	if cfg.MinConns > cfg.MaxConns {
		cfg.MinConns = cfg.MaxConns
	}
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	// pgx caches prepared statements and the server may then reuse a
	// generic plan: right for the point reads and seeks of every request
	// (planning each execution cost a third of ClipsByID's server time),
	// wrong for a text search, which countAndPage plans with its values.
	if opts.StatementTimeout > 0 {
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(max(opts.StatementTimeout.Milliseconds(), 1), 10)
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "catalog"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, catalog.Reworded("postgres: "+connectReason(err, cfg.ConnConfig.ConnectTimeout), err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, ConnectTimeout+time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, catalog.Reworded(fmt.Sprintf("postgres: cannot connect to %s: %s", serverName(cfg), connectReason(err, cfg.ConnConfig.ConnectTimeout)), err)
	}
	s := &Store{pool: pool}
	s.Methods = sqlstore.Methods{DB: db{s: s}}
	if err := s.openStreams(ctx, cfg); err != nil {
		pool.Close()
		return nil, catalog.Reworded("postgres: "+connectReason(err, cfg.ConnConfig.ConnectTimeout), err)
	}
	return s, nil
}

func defaultMaxConns(n int) int {
	if n > 0 {
		return n
	}
	return min(max(4*runtime.GOMAXPROCS(0), 4), 32)
}

func serverName(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("%s:%d (database %q, user %q)", c.Host, c.Port, c.Database, c.User)
}

// Migrate brings the schema up to date. Several processes may call it
// at once: a session-level advisory lock lets one migrate while the
// others wait and then find nothing left to do. A schema newer than
// this binary knows is refused (internal/schema).
func (s *Store) Migrate(ctx context.Context) error {
	_, err := s.MigrateApplied(ctx)
	return err
}

// MigrateApplied is Migrate, returning the migrations it applied and,
// when the stored search text was of an older fold and the catalog is
// not empty, a line saying what its refold changed (catalog.Refolded).
func (s *Store) MigrateApplied(ctx context.Context) ([]string, error) {
	// A separate database/sql handle, closed afterwards, so that goose's
	// lock connection never competes with the pool.
	conf := s.pool.Config().ConnConfig.Copy()
	// Building an index on a large table may take minutes.
	conf.RuntimeParams["statement_timeout"] = "0"
	db := stdlib.OpenDB(*conf)
	defer db.Close()
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID), lock.WithLockTimeout(1, 600))
	if err != nil {
		return nil, fmt.Errorf("postgres: migration lock: %w", err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("postgres: migrations: %w", err)
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, fmt.Errorf("postgres: migrations: %w", err)
	}
	applied, err := schema.Up(ctx, provider)
	if catalog.ErrorCode(err) == catalog.EINVALID {
		return nil, err
	}
	if err != nil {
		// goose's own message quotes whole SQL statements; the server's
		// message is the useful line (e.g. permission denied for
		// schema public).
		return nil, catalog.Reworded("postgres: migrate: "+connectReason(err, ConnectTimeout), err)
	}
	r, refolded, err := s.refold(ctx)
	if err != nil {
		return applied, fmt.Errorf("postgres: migrate: %w", err)
	}
	if refolded && r.Clips+r.Movies > 0 {
		applied = append(applied, r.String())
	}
	return applied, nil
}

// Close releases every connection.
func (s *Store) Close() error {
	s.pool.Close()
	s.streams.Close()
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return translate(s.pool.Ping(ctx), "ping")
}

// DataVersion is bumped by triggers in the same transaction as every
// change to clips or movies, by whichever instance made it.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT data_version FROM meta`).Scan(&v)
	return v, translate(err, "data version")
}

// TryLock takes the session-level advisory lock key on a connection
// held until unlock is called, without waiting: ok is false when
// another session (any instance) holds it. If the connection dies the
// server releases the lock by itself. The connection is the stream
// pool's spare one: the lock is held for a whole snapshot build.
func (s *Store) TryLock(ctx context.Context, key int64) (unlock func(), ok bool, err error) {
	conn, err := s.streams.Acquire(ctx)
	if err != nil {
		return nil, false, translate(err, "lock")
	}
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil {
		conn.Release()
		return nil, false, translate(err, "lock")
	}
	if !ok {
		conn.Release()
		return nil, false, nil
	}
	unlock = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var released bool
		if err := conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, key).Scan(&released); err != nil || !released {
			// Closing the session is the other way to drop the lock; the
			// pool then discards the connection.
			conn.Conn().Close(ctx)
		}
		conn.Release()
	}
	return unlock, true, nil
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, fn)
}
