package sqlite

import (
	"context"
	"database/sql"

	"golang.org/x/sync/semaphore"

	"catalog/internal/catalog"
)

// openStreams opens the pool of the whole-table streams (see
// catalog.RowStreams): the request readers never lend them a connection, so
// a request read finds one at once however many streams run.
func (s *Store) openStreams(base string) error {
	s.rowStreams = semaphore.NewWeighted(catalog.RowStreams)
	db, err := openPool(s.path, base+"&_pragma=query_only(1)", catalog.RowStreams)
	if err != nil {
		return err
	}
	s.streams = db
	return nil
}

// beginStream starts one read transaction on a stream connection, in a
// slot of s.rowStreams, waiting for the slot until ctx is done. done ends the transaction and frees the slot.
func (s *Store) beginStream(ctx context.Context) (tx *sql.Tx, done func(), err error) {
	b := s.rowStreams
	if err := b.Acquire(ctx, 1); err != nil {
		return nil, nil, err
	}
	if tx, err = s.streams.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
		b.Release(1)
		return nil, nil, err
	}
	return tx, func() { tx.Rollback(); b.Release(1) }, nil
}

// streamTx runs fn in one read transaction on a stream connection (see
// beginStream).
func (s *Store) streamTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, done, err := s.beginStream(ctx)
	if err != nil {
		return err
	}
	defer done()
	return fn(tx)
}
