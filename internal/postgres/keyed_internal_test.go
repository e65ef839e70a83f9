package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Reads sent together share one round trip, each with its own rows: on
// the server they run in one implicit transaction (one now(), one
// backend). A statement that fails in the batch fails alone, and the
// reads after it are sent again alone and answered all the same.
func TestKeyedReadsShareRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, serverDSN(t), Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	type answer struct {
		rows int
		tx   string // now() and the backend's pid
	}
	const n, failing = 11, 5
	got := make([]answer, n)
	reads := make([]*keyedRead, n)
	for i := range reads {
		sql, arg := `SELECT now()::text || ' ' || pg_backend_pid(), g FROM generate_series(1, $1::int) g`, i+1
		if i == failing {
			sql, arg = `SELECT now()::text || ' ' || pg_backend_pid(), 1 / $1::int`, 0
		}
		reads[i] = &keyedRead{ctx: ctx, sql: sql, args: []any{arg}, scan: func(rows pgx.Rows) error {
			got[i] = answer{}
			defer rows.Close()
			for rows.Next() {
				var g int
				if err := rows.Scan(&got[i].tx, &g); err != nil {
					return err
				}
				got[i].rows++
			}
			return rows.Err()
		}}
	}
	s.keyed.send(ctx, reads)

	seen := map[string]bool{}
	for i, r := range reads {
		switch {
		case i == failing:
			var pgErr *pgconn.PgError
			if !errors.As(r.err, &pgErr) || pgErr.Code != "22012" {
				t.Errorf("read %d: got %v, want division_by_zero", i, r.err)
			}
			continue
		case r.err != nil || got[i].rows != i+1:
			t.Errorf("read %d: got %d rows, %v; want %d rows", i, got[i].rows, r.err, i+1)
		case i < failing && got[i].tx != got[0].tx:
			t.Errorf("read %d ran in %q, read 0 in %q: want one batch", i, got[i].tx, got[0].tx)
		case i > failing && seen[got[i].tx]:
			t.Errorf("read %d ran in %q with another read: want it sent alone", i, got[i].tx)
		}
		seen[got[i].tx] = true
	}
}
