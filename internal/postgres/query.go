package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// db is the store as the shared methods use it (sqlstore.DB): every
// statement on the request pool, or inside Tx in tx; times as
// timestamptz (NULL: not set).
type db struct {
	s  *Store
	tx pgx.Tx
}

// runs is where a statement runs: tx, or the pool.
func (d db) runs() interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
	QueryRow(context.Context, string, ...any) pgx.Row
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
} {
	if d.tx != nil {
		return d.tx
	}
	return d.s.pool
}

func (d db) Query(ctx context.Context, what, query string, args []any, scan func(sqlstore.Scanner) error) error {
	rows, err := d.runs().Query(ctx, query, args...)
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

func (d db) Exec(ctx context.Context, what, query string, args ...any) (int64, error) {
	tag, err := d.runs().Exec(ctx, query, args...)
	if err != nil {
		return 0, translate(err, what)
	}
	return tag.RowsAffected(), nil
}

func (d db) Insert(ctx context.Context, what, query string, args ...any) (int64, error) {
	var id int64
	err := d.runs().QueryRow(ctx, query, args...).Scan(&id)
	return id, translate(err, what)
}

func (d db) Batch(ctx context.Context, what string, writes []sqlstore.Stmt) error {
	err := d.s.inTx(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		for _, w := range writes {
			b.Queue(w.SQL, w.Args...)
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	return translate(err, what)
}

func (d db) Tx(ctx context.Context, what string, fn func(sqlstore.DB) error) error {
	return translate(d.s.inTx(ctx, func(tx pgx.Tx) error { return fn(db{d.s, tx}) }), what)
}

func (db) Time(t time.Time) any { return t }

func (db) Unset() string { return "NULL" }

func (db) TimeDest(t *time.Time) any { return utcDest{t} }

// utcDest scans a timestamptz into a time in UTC; NULL is no time.
type utcDest struct{ t *time.Time }

func (u utcDest) ScanTimestamptz(v pgtype.Timestamptz) error {
	*u.t = time.Time{}
	if v.Valid {
		*u.t = v.Time.UTC()
	}
	return nil
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

// byID reads the rows of ids, highest id first: from is "SELECT ...
// FROM ..." and col the id column, named as from names it. A page of a
// whole list (catalog.KeyRange) is one range of the key, other ids
// "= ANY". The statement runs on the request pool.
func byID[T any](ctx context.Context, s *Store, what, from, col string, ids []int64,
	scan func(pgx.Row, *T) error, id func(*T) int64) ([]T, error) {
	if len(ids) == 0 {
		return []T{}, nil
	}
	lo, hi, dense := catalog.KeyRange(ids)
	sql, args, size := from+` WHERE `+col+` = ANY($1) ORDER BY `+col+` DESC`, []any{ids}, int64(len(ids))
	if dense {
		// The LIMIT (the range's size, rounded up to a power of two so
		// that few statements are prepared) tells the planner how few
		// rows the range holds. Without it the generic plan of an
		// unknown range is costed at a share of the table, so
		// PostgreSQL plans the statement again on every execution
		// instead of keeping its cached plan.
		limit := int64(16)
		for limit < hi-lo+1 {
			limit *= 2
		}
		sql = from + ` WHERE ` + col + ` BETWEEN $1 AND $2 ORDER BY ` + col + ` DESC LIMIT ` + strconv.FormatInt(limit, 10)
		args, size = []any{lo, hi}, hi-lo+1
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, translate(err, what)
	}
	page, err := collect(rows, size, scan)
	if err != nil {
		return nil, translate(err, what)
	}
	if dense {
		page = catalog.OnlyAsked(page, ids, id)
	}
	return page, nil
}
