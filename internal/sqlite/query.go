package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// db is the store as the shared methods use it (sqlstore.DB): reads of
// the reader pool, each in a reader slot (takeReader) with a statement
// prepared once (Store.prepared; the shared statements are constants);
// writes on the one writer; times in unix seconds (0: not set). Inside
// Tx, every statement runs in tx.
type db struct {
	s  *Store
	tx *sql.Tx
}

func (d db) Query(ctx context.Context, what, query string, args []any, scan func(sqlstore.Scanner) error) error {
	var rows *sql.Rows
	var err error
	if d.tx != nil {
		rows, err = d.tx.QueryContext(ctx, query, args...)
	} else {
		if err := d.s.takeReader(ctx, what); err != nil {
			return err
		}
		defer d.s.readSlots.Release(1)
		var st *sql.Stmt
		if st, err = d.s.prepared(ctx, query); err != nil {
			return err
		}
		rows, err = st.QueryContext(ctx, args...)
	}
	if err != nil {
		return translate(err, what)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return translate(err, what)
		}
	}
	return translate(rows.Err(), what)
}

// writes is where a write runs: tx, or the writer.
func (d db) writes() interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
} {
	if d.tx != nil {
		return d.tx
	}
	return d.s.writer
}

func (d db) Exec(ctx context.Context, what, query string, args ...any) (int64, error) {
	res, err := d.writes().ExecContext(ctx, query, args...)
	if err != nil {
		return 0, translate(err, what)
	}
	n, err := res.RowsAffected()
	return n, translate(err, what)
}

func (d db) Insert(ctx context.Context, what, query string, args ...any) (int64, error) {
	var id int64
	err := d.writes().QueryRowContext(ctx, query, args...).Scan(&id)
	return id, translate(err, what)
}

func (d db) Batch(ctx context.Context, what string, writes []sqlstore.Stmt) error {
	return d.s.writeTx(ctx, what, func(tx *sql.Tx) error {
		for _, w := range writes {
			if _, err := tx.ExecContext(ctx, w.SQL, w.Args...); err != nil {
				return translate(err, what)
			}
		}
		return nil
	})
}

func (d db) Tx(ctx context.Context, what string, fn func(sqlstore.DB) error) error {
	return d.s.writeTx(ctx, what, func(tx *sql.Tx) error { return fn(db{d.s, tx}) })
}

func (db) Time(t time.Time) any { return t.Unix() }

func (db) Unset() string { return "0" }

func (db) TimeDest(t *time.Time) any { return unixDest{t} }

// unixDest scans unix seconds into a time; 0 is no time.
type unixDest struct{ t *time.Time }

func (u unixDest) Scan(src any) error {
	sec, _ := src.(int64)
	*u.t = time.Time{}
	if sec != 0 {
		*u.t = unixTime(sec)
	}
	return nil
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
