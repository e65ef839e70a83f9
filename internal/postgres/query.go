package postgres

import (
	"github.com/jackc/pgx/v5"
)

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
