package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"catalog/internal/budget"
)

// countAndPage runs a list's count and page queries in one round trip
// (a pgx batch) and scans the page with scan. what names the records in
// error context ("clips", "movies"). kept says that countSQL reads a
// trigger-kept count: with a page before catalog.DeepOffset (offset) the
// read is then light and takes no slot of the list budget.
//
// A text search (search true) is planned with its values: a generic
// plan for "title_fold LIKE $1" cannot tell a rare term (use the
// trigram index) from a common one (walk the id index). The batch is
// one implicit transaction (one Sync), so the SET is undone by the
// RESET at its end, or by the rollback when a statement fails.
func countAndPage[T any](ctx context.Context, s *Store, search bool, countSQL string, countArgs []any, kept bool, offset int64,
	pageSQL string, pageArgs []any, limit int64, scan func(pgx.Row, *T) error, what string) ([]T, int64, error) {
	if !budget.Light(kept, offset) {
		if err := s.lists.Acquire(ctx); err != nil {
			return nil, 0, translate(err, "list "+what)
		}
		defer s.lists.Release()
	}
	batch := &pgx.Batch{}
	if search {
		batch.Queue(`SET plan_cache_mode = force_custom_plan`)
	}
	batch.Queue(countSQL, countArgs...)
	batch.Queue(pageSQL, pageArgs...)
	if search {
		batch.Queue(`RESET plan_cache_mode`)
	}
	br := s.pool.SendBatch(ctx, batch)
	defer br.Close()
	if search {
		if _, err := br.Exec(); err != nil {
			return nil, 0, translate(err, "list "+what)
		}
	}
	var total int64
	if err := br.QueryRow().Scan(&total); err != nil {
		return nil, 0, translate(err, "count "+what)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, 0, translate(err, "list "+what)
	}
	page, err := collect(rows, limit, scan)
	if err != nil {
		return nil, 0, translate(err, "list "+what)
	}
	return page, total, translate(br.Close(), "list "+what)
}

// collect scans every row with scan (pgx.CollectRows closes rows). The
// result is never nil, so an empty page encodes as [].
func collect[T any](rows pgx.Rows, limit int64, scan func(pgx.Row, *T) error) ([]T, error) {
	page, err := pgx.AppendRows(make([]T, 0, limit), rows, func(row pgx.CollectableRow) (T, error) {
		var v T
		err := scan(row, &v)
		return v, err
	})
	return page, err
}
