package sqlite

import (
	"catalog/internal/catalog"
	"context"
)

// queryAll runs a read with a prepared statement (Store.prepared) and
// scans every row with scan, in the reader slot its caller holds
// (takeReader). The result is never nil, so an empty page encodes as
// [].
func queryAll[T any](ctx context.Context, s *Store, what, query string, args []any, sizeHint int64,
	scan func(scanner, *T) error) ([]T, error) {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
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
// (catalog.KeyRange) is one range scan, other ids an IN list (inIDs).
// Either way a page is one prepared statement on a keyed connection
// (keyedConns), in one reader slot.
func byID[T any](ctx context.Context, s *Store, what, from, col string, ids []int64,
	scan func(scanner, *T) error, id func(*T) int64) ([]T, error) {
	if err := s.takeReader(ctx, what); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	if err := ctx.Err(); err != nil {
		return nil, translate(err, what)
	}
	query, args, size := from+` WHERE `+col+` IN `, []int64(nil), int64(len(ids))
	lo, hi, dense := catalog.KeyRange(ids)
	if dense {
		query, args, size = from+` WHERE `+col+` BETWEEN ? AND ?`, []int64{lo, hi}, hi-lo+1
	} else {
		var in string
		in, args = inIDs(ids)
		query += in
	}
	page := make([]T, 0, size)
	var zero T
	err := s.keyed.read(query+` ORDER BY `+col+` DESC`, args, func(row *keyedRows) error {
		// Scanned in place: a local passed to scan would escape, one
		// allocation per row.
		page = append(page, zero)
		return scan(row, &page[len(page)-1])
	})
	if err != nil {
		return nil, translate(err, what)
	}
	if dense {
		page = catalog.OnlyAsked(page, ids, id)
	}
	return page, nil
}
