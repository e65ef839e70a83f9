package postgres

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
	"catalog/internal/testenv"
)

// serverDSN is the test server (pgtest cannot be imported here: it
// imports this package).
func serverDSN(t *testing.T) string {
	dsn := os.Getenv("CATALOG_TEST_POSTGRES")
	if dsn == "" {
		testenv.SkipOrFail(t, "CATALOG_TEST_POSTGRES not set")
	}
	return dsn
}

// A statement still running at its context's deadline is cancelled on
// the server and reported as EUNAVAILABLE "request timed out", as on
// SQLite: one run on a connection of the pool, and a read of the
// shared methods (sqlstore.DB).
func TestDeadlineCancelsStatement(t *testing.T) {
	tests := []struct {
		name string
		run  func(ctx context.Context, s *Store, sql string) error
	}{
		{"statement", func(ctx context.Context, s *Store, sql string) error {
			_, err := s.pool.Exec(ctx, sql)
			return err
		}},
		{"read", func(ctx context.Context, s *Store, sql string) error {
			return db{s: s}.Query(ctx, "sleep", sql, nil, func(sqlstore.Scanner) error { return nil })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, serverDSN(t), Options{MaxConns: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			qctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			err = translate(tt.run(qctx, s, `SELECT pg_sleep(30)`), "sleep")
			if catalog.ErrorCode(err) != catalog.EUNAVAILABLE || catalog.ErrorMessage(err) != "request timed out" {
				t.Fatalf("got %v (code %q), want EUNAVAILABLE \"request timed out\"", err, catalog.ErrorCode(err))
			}
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("statement stopped after %v, want soon after the 100ms deadline", elapsed)
			}
			// The pool is still usable: the cancelled statement is gone.
			if err := tt.run(ctx, s, `SELECT 1`); err != nil {
				t.Errorf("after the cancel: %v", err)
			}
		})
	}
}

// Options.StatementTimeout is the server-side backstop: a statement
// whose client never cancels it is stopped by the server.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, serverDSN(t), Options{MaxConns: 2, StatementTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var setting string
	if err := s.pool.QueryRow(ctx, `SHOW statement_timeout`).Scan(&setting); err != nil {
		t.Fatal(err)
	}
	if setting != "300ms" {
		t.Errorf("statement_timeout = %q, want 300ms", setting)
	}
	start := time.Now()
	_, err = s.pool.Exec(ctx, `SELECT pg_sleep(30)`)
	if err := translate(err, "sleep"); catalog.ErrorCode(err) != catalog.EUNAVAILABLE || catalog.ErrorMessage(err) != "request timed out" {
		t.Fatalf("got %v (code %q), want EUNAVAILABLE \"request timed out\"", err, catalog.ErrorCode(err))
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("statement stopped after %v, want about 300ms", elapsed)
	}
}

// Streams of a whole table (EachMovie) run on the stream pool, where
// statement_timeout does not apply; the request pool keeps it.
func TestStreamsLiftStatementTimeout(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, serverDSN(t), Options{MaxConns: 1, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.streamTx(ctx, pgx.ReadCommitted, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `SELECT pg_sleep(0.5)`)
		return err
	})
	if err != nil {
		t.Fatalf("a 500ms statement on a stream connection: %v", err)
	}
	if _, err := s.pool.Exec(ctx, `SELECT pg_sleep(0.5)`); catalog.ErrorCode(translate(err, "sleep")) != catalog.EUNAVAILABLE {
		t.Errorf("on the request pool: got %v, want the statement_timeout", err)
	}
}
