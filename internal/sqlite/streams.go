package sqlite

import (
	"context"
	"database/sql"

	"catalog/internal/budget"
)

// openStreams opens the pool of the whole-table streams (see
// budget.Streams): the request readers never lend them a connection, so
// a request read finds one at once however many streams run.
func (s *Store) openStreams(base string) error {
	s.stream = budget.NewStreams()
	db, err := openPool(s.path, base+"&_pragma=query_only(1)", s.stream.Conns())
	if err != nil {
		return err
	}
	s.streams = db
	return nil
}

// beginStream starts one read transaction on a stream connection, in a
// slot of b (s.stream.Rows), waiting for the slot until
// ctx is done. done ends the transaction and frees the slot.
func (s *Store) beginStream(ctx context.Context, b *budget.Budget) (tx *sql.Tx, done func(), err error) {
	if err := b.Acquire(ctx); err != nil {
		return nil, nil, err
	}
	if tx, err = s.streams.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
		b.Release()
		return nil, nil, err
	}
	return tx, func() { tx.Rollback(); b.Release() }, nil
}

// streamTx runs fn in one read transaction on a stream connection (see
// beginStream).
func (s *Store) streamTx(ctx context.Context, b *budget.Budget, fn func(tx *sql.Tx) error) error {
	tx, done, err := s.beginStream(ctx, b)
	if err != nil {
		return err
	}
	defer done()
	return fn(tx)
}
