package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/semaphore"

	"catalog/internal/catalog"
)

// openStreams opens the pool of the whole-table streams (see
// catalog.RowStreams) and of the snapshot lock's session: the request pool
// never lends them a connection, so a request finds one at once however
// many streams run. A stream runs as long as its reader takes the rows
// (minutes for the snapshot of a large catalog), so statement_timeout,
// meant for requests, does not bound it; its context does.
func (s *Store) openStreams(ctx context.Context, cfg *pgxpool.Config) error {
	s.rowStreams = semaphore.NewWeighted(catalog.RowStreams)
	cfg = cfg.Copy()
	cfg.MaxConns = int32(catalog.RowStreams + 1) // + the snapshot lock
	cfg.MinConns = 0
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = "0"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	s.streams = pool
	return nil
}

// streamTx runs fn in one read-only transaction of level iso on a
// stream connection, in a slot of s.rowStreams, waiting for the slot
// until ctx is done.
func (s *Store) streamTx(ctx context.Context, iso pgx.TxIsoLevel, fn func(tx pgx.Tx) error) error {
	if err := s.rowStreams.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.rowStreams.Release(1)
	return pgx.BeginTxFunc(ctx, s.streams, pgx.TxOptions{IsoLevel: iso, AccessMode: pgx.ReadOnly}, fn)
}

// StreamPoolStat reports the stream pool (for metrics).
func (s *Store) StreamPoolStat() *pgxpool.Stat { return s.streams.Stat() }
