package sqlite

import (
	"context"

	"catalog/internal/budget"
	"catalog/internal/catalog"
)

// countAndPage is the shape of every list read: the exact total from
// count, then, unless the page lies past it, the page from query, whose
// args are followed by LIMIT and OFFSET. what names the records in
// error context ("clips", "movies"). kept says that count reads a
// trigger-kept count: with a shallow page the read is then light (see
// budget.Light) and takes no slot of the list budget.
func countAndPage[T any](ctx context.Context, s *Store, count func() (int64, error), kept bool, query string, args []any,
	cache bool, p catalog.Paging, scan func(scanner, *T) error, what string) ([]T, int64, error) {
	if !budget.Light(kept, p.Offset()) {
		if err := s.lists.Acquire(ctx); err != nil {
			return nil, 0, translate(err, "list "+what)
		}
		defer s.lists.Release()
	}
	total, err := count()
	if err != nil {
		return nil, 0, translate(err, "count "+what)
	}
	if total == 0 || p.Offset() >= total {
		return []T{}, total, nil
	}
	page, err := queryAll(ctx, s, "list "+what, query, append(args, p.Limit, p.Offset()), cache, min(p.Limit, total), scan)
	if err != nil {
		return nil, 0, err
	}
	return page, total, nil
}

// queryAll runs a read (see Store.query) and scans every row with scan.
// The result is never nil, so an empty page encodes as [].
func queryAll[T any](ctx context.Context, s *Store, what, query string, args []any, cache bool, sizeHint int64,
	scan func(scanner, *T) error) ([]T, error) {
	rows, err := s.query(ctx, query, args, cache)
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
