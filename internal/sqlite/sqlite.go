// Package sqlite is the SQLite engine of the catalog store, on the pure-Go
// driver modernc.org/sqlite. One file: a single writer connection
// (SQLite allows one writer at a time; queueing in Go is cheaper than
// SQLITE_BUSY retries) and readers that run in parallel thanks to WAL.
// The hot point reads, the keyed reads of pages and details and the
// data version, call SQLite's C API on connections of their own
// (keyed.go); everything else goes through database/sql.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	"golang.org/x/sync/semaphore"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"catalog/internal/catalog"
	"catalog/internal/schema"
	"catalog/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options tunes a Store.
type Options struct {
	// MaxReadConns bounds the reader pool; 0 means max(4, 2*GOMAXPROCS).
	MaxReadConns int
}

// Store is a catalog.Store on one SQLite file.
type Store struct {
	sqlstore.Methods // the methods both engines share, over db
	path             string
	writer           *sql.DB
	reader           *sql.DB
	// readSlots hands out reader's connections in the order the callers
	// came: every read of reader takes one first (see takeReader).
	readSlots *semaphore.Weighted
	readConns int // readSlots' size
	// versions are the connections that read only the data versions:
	// caches check one on every request, and that check must not queue
	// for a reader behind slow searches, so it takes no reader slot.
	versions *keyedConns

	// streams are the connections of whole-table streams; rowStreams
	// bounds the row streams (see streams.go).
	streams    *sql.DB
	rowStreams *semaphore.Weighted

	// keyed are the connections of the keyed reads (byID).
	keyed *keyedConns

	// Hot read statements of fixed texts, prepared once on first use.
	stmts sync.Map // query text -> *sql.Stmt
	mu    sync.Mutex
}

var _ catalog.Store = (*Store)(nil)

// pragmas apply to every connection. busy_timeout comes first so that
// the others wait for a lock instead of failing with SQLITE_BUSY.
const pragmas = "_pragma=busy_timeout(10000)" +
	"&_pragma=journal_mode(WAL)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(NORMAL)" +
	"&_pragma=temp_store(MEMORY)" // statement journals (triggers) stay off disk

// Open opens (creating if needed) the database file at path. It does not
// migrate; call Migrate.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty database path")
	}
	if strings.HasPrefix(path, "file:") || strings.Contains(path, ":memory:") {
		return nil, fmt.Errorf("sqlite: %q: give a plain file path (two connection pools cannot share a memory database)", path)
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	base := "file:" + escapePath(path) + "?" + pragmas
	s := &Store{path: path}
	s.Methods = sqlstore.Methods{DB: db{s: s}}
	var err error
	// BEGIN IMMEDIATE takes the write lock up front, so a transaction
	// never fails half-way when another process holds the lock. Its page
	// cache is SQLite's default except during a bulk write (bulkTx).
	if s.writer, err = openPool(path, base+"&_txlock=immediate", 1); err != nil {
		return nil, err
	}
	if err := s.writer.PingContext(ctx); err != nil {
		s.writer.Close()
		return nil, cannotOpen(path, err)
	}

	n := opts.MaxReadConns
	if n <= 0 {
		n = max(4, 2*runtime.GOMAXPROCS(0))
	}
	s.readSlots, s.readConns = semaphore.NewWeighted(int64(n)), n
	if s.reader, err = openPool(path, base+"&_pragma=query_only(1)", n); err != nil {
		s.writer.Close()
		return nil, err
	}
	if err := s.reader.PingContext(ctx); err != nil {
		s.Close()
		return nil, cannotOpen(path, err)
	}
	s.keyed, s.versions = newKeyedConns(path), newKeyedConns(path)
	if err := s.openStreams(base); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openPool opens a pool of at most n connections to dsn that keeps
// every connection it opened: each one has run the pragmas and holds its
// own page cache.
func openPool(path, dsn string, n int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// cannotOpen words a failed first connection for the operator.
func cannotOpen(path string, err error) error {
	return catalog.Reworded(fmt.Sprintf("sqlite: cannot open database file %s: %s", path, oneLine(err)), err)
}

// checkPath turns the usual mistakes into a clearer message than
// SQLite's "unable to open database file".
func checkPath(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("sqlite: %s is a directory, not a database file", path)
	}
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sqlite: cannot create database file %s: directory %s does not exist", path, dir)
	}
	return nil
}

// createPrivate creates the database file, when it does not exist yet,
// readable by its owner only: it holds the administrators' password
// hashes and the session and token hashes. SQLite gives the -wal and
// -shm files it creates beside it the database file's permissions. An
// existing file keeps the permissions its operator gave it.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: cannot create database file %s: %s", path, oneLine(err))
	}
	return f.Close()
}

// escapePath makes path safe inside a file: URI; SQLite decodes %XX.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Migrate brings the schema up to date. Each migration runs in its own
// transaction; running it again is a no-op. A schema newer than this
// binary knows is refused (internal/schema).
func (s *Store) Migrate(ctx context.Context) error {
	_, err := s.MigrateApplied(ctx)
	return err
}

// MigrateApplied is Migrate, returning the migrations it applied and,
// when the stored search text was of an older fold and the catalog is
// not empty, a line saying what its refold changed (catalog.Refolded).
func (s *Store) MigrateApplied(ctx context.Context) ([]string, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("sqlite: migrations: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, s.writer, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, fmt.Errorf("sqlite: migrations: %w", err)
	}
	applied, err := schema.Up(ctx, p)
	if catalog.ErrorCode(err) == catalog.EINVALID {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: migrate %s: %w", s.path, err)
	}
	r, refolded, err := s.refold(ctx)
	if err != nil {
		return applied, fmt.Errorf("sqlite: migrate %s: %w", s.path, err)
	}
	if refolded && r.Clips+r.Movies > 0 {
		applied = append(applied, r.String())
	}
	return applied, nil
}

// Close closes the pools.
func (s *Store) Close() error {
	s.stmts.Range(func(_, v any) bool {
		v.(*sql.Stmt).Close()
		return true
	})
	var errs []error
	if s.versions != nil {
		s.versions.close()
	}
	if s.reader != nil {
		errs = append(errs, s.reader.Close())
	}
	if s.keyed != nil {
		s.keyed.close()
	}
	if s.streams != nil {
		errs = append(errs, s.streams.Close())
	}
	if s.writer != nil {
		errs = append(errs, s.writer.Close())
	}
	return errors.Join(errs...)
}

// Ping runs a real query so that a locked or vanished file is noticed.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.DataVersion(ctx)
	return err
}

// DataVersion is bumped by triggers on every clip or movie write, by any
// process using the file.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	return s.readVersion(ctx, `SELECT data_version FROM meta WHERE id = 1`)
}

// readVersion reads the one number of query on a version connection.
func (s *Store) readVersion(ctx context.Context, query string) (int64, error) {
	const what = "read data version"
	if err := ctx.Err(); err != nil {
		return 0, translate(err, what)
	}
	var v int64
	rows := 0
	err := s.versions.read(query, nil, func(r *keyedRows) error {
		rows++
		return r.Scan(&v)
	})
	if err == nil && rows != 1 {
		err = fmt.Errorf("sqlite: %d rows of meta", rows)
	}
	return v, translate(err, what)
}

// prepared returns the reader statement for query, preparing it once.
// Preparing lazily keeps Open usable before Migrate has created tables.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if v, ok := s.stmts.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.stmts.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	st, err := s.reader.PrepareContext(ctx, query)
	if err != nil {
		return nil, translate(err, "prepare query")
	}
	s.stmts.Store(query, st)
	return st, nil
}

// takeReader takes one of the reader pool's slots for a read of s.reader
// (what names it in an error), waiting until one is free or ctx is done;
// a nil error must be followed by s.readSlots.Release once the read's
// rows are closed. Every read of s.reader takes one, so database/sql
// never has a caller waiting for a connection: it hands a freed one to
// a waiter drawn at random, and under load some requests would then
// wait many times longer than the rest, while the slots go in arrival
// order. ctx is the request's, never a pointRead one, so that a request
// past its deadline stops waiting.
func (s *Store) takeReader(ctx context.Context, what string) error {
	return translate(s.readSlots.Acquire(ctx, 1), what)
}

// pointRead detaches a short read from the request's cancellation. With
// a cancellable context the driver starts a watcher goroutine and
// installs a progress handler for every statement, and database/sql
// starts another goroutine: 7 of the 17 us a data-version read took on
// this machine. A read of one row or one seek page ends in microseconds,
// so cancelling it would save nothing. A context already done is kept,
// so that the driver refuses the read at once: a request past its
// deadline gets its 503 (contract 2) and not one more query.
func pointRead(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// now is the store's clock: UTC, whole seconds (what the columns hold).
func now() time.Time { return catalog.StoredNow() }

func unixTime(sec int64) time.Time { return catalog.UnixTime(sec) }

// writeTx runs fn in one write transaction, committing when fn succeeds.
func (s *Store) writeTx(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, what)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return translate(err, what)
	}
	return nil
}

// The writer's page cache: 64 MiB during a bulk write, SQLite's default
// 2 MiB otherwise (see bulkTx).
const (
	bulkCachePragma = `PRAGMA cache_size = -65536`
	idleCachePragma = `PRAGMA cache_size = -2000`
)

// bulkTx is writeTx for a bulk write (an import batch). The transaction
// gets a 64 MiB page cache, so that the batch builds its b-trees in
// memory instead of spilling pages to the WAL before the commit, and the
// cache goes back to 2 MiB after it, which frees the pages above that.
// The cache must not stay at 64 MiB: it would fill with the pages that
// single edits touch, memory outside the Go heap that SQLite never gives
// back (BENCHMARKS.md, bulk writes).
func (s *Store) bulkTx(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	if _, err := s.writer.ExecContext(ctx, bulkCachePragma); err != nil {
		return translate(err, what)
	}
	// Restored even when ctx is done; a failure here (a closed store)
	// leaves nothing to restore.
	defer s.writer.ExecContext(context.WithoutCancel(ctx), idleCachePragma)
	return s.writeTx(ctx, what, fn)
}

// nextIDs is the id after which n new records of table (kind names them
// in errors) are numbered, inside the write transaction tx. The rule of
// AUTOINCREMENT, after the highest id ever used, holds while it leaves
// room for n within catalog.MaxID. Past that, the records are numbered
// after the highest id present, and the table's sequence is moved back
// there, so that a catalog whose record at the very top was deleted
// gets ids again. EUNAVAILABLE when not even that leaves room. A
// record inserted with its id moves the sequence past it by itself.
func nextIDs(ctx context.Context, tx *sql.Tx, table, kind string, n int) (int64, error) {
	var used, present int64
	err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0),
coalesce((SELECT max(id) FROM `+table+`), 0)`, table).Scan(&used, &present)
	if err != nil {
		return 0, translate(err, "number new "+table)
	}
	if last := max(used, present); last <= catalog.MaxID-int64(n) {
		return last, nil
	}
	if err := catalog.CheckAssignedID(kind, present+int64(n)); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = ? WHERE name = ?`, present, table); err != nil {
		return 0, translate(err, "number new "+table)
	}
	return present, nil
}

// txStmts prepares each statement of one write transaction once, on
// first use; what names the write in errors.
type txStmts struct {
	tx    *sql.Tx
	what  string
	stmts map[string]*sql.Stmt
	args  []any // reused bulk INSERT arguments
}

func (t *txStmts) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := t.stmts[query]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, translate(err, t.what)
	}
	if t.stmts == nil {
		t.stmts = make(map[string]*sql.Stmt)
	}
	t.stmts[query] = st
	return st, nil
}

func (t *txStmts) close() {
	for _, st := range t.stmts {
		st.Close()
	}
}

// insertRows is how many records one bulk INSERT writes: each statement
// costs a trip through database/sql and the driver, and a statement
// journal for the pages the row triggers touch.
const insertRows = 50

// insert writes n records numbered after last with multi-row INSERTs
// of head and one row per record; values appends record i's values
// after its id.
func (t *txStmts) insert(ctx context.Context, head, row string, n int, last int64, values func(args []any, i int) []any) error {
	for start := 0; start < n; start += insertRows {
		k := min(n-start, insertRows)
		st, err := t.stmt(ctx, head+strings.Repeat(row+",", k-1)+row)
		if err != nil {
			return err
		}
		t.args = t.args[:0]
		for i := start; i < start+k; i++ {
			t.args = values(append(t.args, last+int64(i)+1), i)
		}
		if _, err := st.ExecContext(ctx, t.args...); err != nil {
			return translate(err, t.what)
		}
	}
	return nil
}
