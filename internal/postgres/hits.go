package postgres

import (
	"cmp"
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// The hit batch (contract 12). Every instance adds to the stored counts
// in place; under READ COMMITTED an UPDATE that waited for another
// instance's row re-reads the row it then changes, so concurrent
// batches add up and none is lost. The rows are locked in id order
// first, so that two batches never wait for each other's rows in
// opposite orders.
const (
	lockHits = `SELECT id FROM movies WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`
	// addHits adds the counts of the day $3: each period's count grows
	// when the stored day lies in the same period ($3, its week's Monday
	// $4, its month's first day $5), else starts at the count.
	addHits = `UPDATE movies SET hits = movies.hits + v.n,
    hits_day = CASE WHEN movies.hits_on >= $3 THEN movies.hits_day + v.n ELSE v.n END,
    hits_week = CASE WHEN movies.hits_on >= $4 THEN movies.hits_week + v.n ELSE v.n END,
    hits_month = CASE WHEN movies.hits_on >= $5 THEN movies.hits_month + v.n ELSE v.n END,
    hits_on = greatest(movies.hits_on, $3)
FROM unnest($1::bigint[], $2::bigint[]) AS v(id, n)
WHERE movies.id = v.id`
)

// AddHits implements catalog.HitStore in one transaction.
func (s *Store) AddHits(ctx context.Context, day catalog.HitDay, counts []catalog.HitCount) error {
	if len(counts) == 0 {
		return nil
	}
	counts = slices.Clone(counts)
	slices.SortFunc(counts, func(a, b catalog.HitCount) int { return cmp.Compare(a.ID, b.ID) })
	// One UPDATE changes a row once, so an id given twice is one sum.
	ids, ns := make([]int64, 0, len(counts)), make([]int64, 0, len(counts))
	for _, c := range counts {
		if n := len(ids); n > 0 && ids[n-1] == c.ID {
			ns[n-1] += c.N
			continue
		}
		ids, ns = append(ids, c.ID), append(ns, c.N)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// The search log lists these movies as changed in their counts
		// alone (migration 00026): true, as the batch writes nothing else.
		if _, err := tx.Exec(ctx, `SELECT set_config('catalog.hits_only', 'on', true)`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, lockHits, ids); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, addHits, ids, ns, int64(day), int64(day.WeekStart()), int64(day.MonthStart()))
		return err
	})
	return translate(err, "add hits")
}
