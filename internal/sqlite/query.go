package sqlite

import (
	"context"
)

// queryAll runs a read (see Store.query) and scans every row with scan.
// The result is never nil, so an empty page encodes as [].
func queryAll[T any](ctx context.Context, s *Store, what, query string, args []any, sizeHint int64,
	scan func(scanner, *T) error) ([]T, error) {
	rows, err := s.query(ctx, query, args)
	if err != nil {
		return nil, translate(err, what)
	}
	defer rows.Close()
	page := make([]T, 0, sizeHint)
	var zero T
	for rows.Next() {
		// Scanned in place: a local passed to scan would escape, one
		// allocation per row.
		page = append(page, zero)
		if err := scan(rows, &page[len(page)-1]); err != nil {
			return nil, translate(err, what)
		}
	}
	return page, translate(rows.Err(), what)
}
