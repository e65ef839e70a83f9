package sqlite

import (
	"catalog/internal/catalog"
	"context"
)

// queryAll runs a read (see Store.query) and scans every row with scan,
// in the reader slot its caller holds (takeReader). The result is never
// nil, so an empty page encodes as [].
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

// byID reads the rows of ids, highest id first: from is "SELECT ...
// FROM ..." and col the id column. A page of a whole list
// (catalog.KeyRange) is one range scan, other ids an IN list (inIDs). Either way a page costs one prepared statement, read
// as a point read (pointRead) in one reader slot.
func byID[T any](ctx context.Context, s *Store, what, from, col string, ids []int64,
	scan func(scanner, *T) error, id func(*T) int64) ([]T, error) {
	if err := s.takeReader(ctx, what); err != nil {
		return nil, err
	}
	defer s.readSlots.Release()
	ctx = pointRead(ctx)
	lo, hi, dense := catalog.KeyRange(ids)
	if !dense {
		in, args := inIDs(ids)
		return queryAll(ctx, s, what, from+` WHERE `+col+` IN `+in+` ORDER BY `+col+` DESC`, args, int64(len(ids)), scan)
	}
	rows, err := queryAll(ctx, s, what, from+` WHERE `+col+` BETWEEN ? AND ? ORDER BY `+col+` DESC`,
		[]any{lo, hi}, hi-lo+1, scan)
	if err != nil {
		return nil, err
	}
	return catalog.OnlyAsked(rows, ids, id), nil
}
