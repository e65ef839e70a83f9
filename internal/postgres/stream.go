package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// unbounded runs fn in a read-only transaction whose statements the
// connection's statement_timeout (Options.StatementTimeout, meant for
// requests) does not bound: a statement that streams a whole table runs
// as long as its reader takes the rows, minutes for the snapshot of a
// large catalog.
func (s *Store) unbounded(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		return fn(tx)
	})
}
