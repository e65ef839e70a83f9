// Package sqlstore holds the store methods whose SQL and logic are the
// same on both engines, written once over DB: the few things an engine
// supplies (a read, a write, and how it stores a time). internal/sqlite
// and internal/postgres embed Methods in their Store; a method whose
// SQL differs by dialect stays in the engine's own package.
//
// What must stay true: every statement here runs unchanged on SQLite
// and PostgreSQL. Parameters are $1, $2, ... (modernc.org/sqlite binds
// $N by position), values of a type the two store alike (text, integer,
// boolean), and times go through DB.Time and DB.TimeDest.
package sqlstore

import (
	"context"
	"time"

	"catalog/internal/catalog"
)

// Scanner is one row of a result.
type Scanner interface{ Scan(dest ...any) error }

// DB is one engine's database, as the shared methods use it. Its errors
// are the engine's domain errors, what naming the operation.
type DB interface {
	// Query runs a read and hands each row to scan.
	Query(ctx context.Context, what, query string, args []any, scan func(Scanner) error) error
	// Exec runs one write and returns how many rows it changed.
	Exec(ctx context.Context, what, query string, args ...any) (int64, error)
	// Insert runs one INSERT ... RETURNING id and returns the id.
	Insert(ctx context.Context, what, query string, args ...any) (int64, error)
	// Batch runs the writes in one transaction, in order (PostgreSQL
	// sends them in one round trip).
	Batch(ctx context.Context, what string, writes []Stmt) error
	// Tx runs fn in one write transaction, committing when fn returns
	// nil: the statements of tx run inside it, its reads included.
	Tx(ctx context.Context, what string, fn func(tx DB) error) error
	// Time is t as a parameter: SQLite's unix seconds, PostgreSQL's
	// timestamptz (which keeps microseconds: a caller that stores whole
	// seconds passes catalog.StoredTime).
	Time(t time.Time) any
	// TimeDest scans a stored time into t, in UTC; a time not set
	// (SQLite's 0, PostgreSQL's NULL) is the zero time.
	TimeDest(t *time.Time) any
	// Unset is a time not set, in SQL: "0" or "NULL".
	Unset() string
}

// Stmt is one statement of a Batch.
type Stmt struct {
	SQL  string
	Args []any
}

// Methods are the store methods both engines share.
type Methods struct{ DB DB }

// one reads the one row of query into dest: ENOTFOUND naming missing
// when there is none.
func (m Methods) one(ctx context.Context, what, missing, query string, args []any, dest ...any) error {
	found := false
	err := m.DB.Query(ctx, what, query, args, func(row Scanner) error {
		found = true
		return row.Scan(dest...)
	})
	if err == nil && !found {
		return notFound(missing)
	}
	return err
}

// change runs a write that must change a row: ENOTFOUND naming missing
// when it changed none.
func (m Methods) change(ctx context.Context, what, missing, query string, args ...any) error {
	n, err := m.DB.Exec(ctx, what, query, args...)
	if err == nil && n == 0 {
		return notFound(missing)
	}
	return err
}

// All reads every row of query, each scanned by scan into a new T.
func All[T any](ctx context.Context, db DB, what, query string, args []any, scan func(Scanner, *T) error) ([]T, error) {
	var out []T
	err := db.Query(ctx, what, query, args, func(row Scanner) error {
		var v T
		err := scan(row, &v)
		out = append(out, v)
		return err
	})
	return out, err
}

// first is the first row of All: ENOTFOUND naming missing when there
// is none.
func first[T any](ctx context.Context, db DB, what, missing, query string, args []any, scan func(Scanner, *T) error) (T, error) {
	rows, err := All(ctx, db, what, query, args, scan)
	if err == nil && len(rows) == 0 {
		err = notFound(missing)
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return rows[0], nil
}

func notFound(what string) error {
	return &catalog.Error{Code: catalog.ENOTFOUND, Message: what + " not found"}
}

// DeleteMovie returns ENOTFOUND when no movie has the id.
func (m Methods) DeleteMovie(ctx context.Context, id int64) error {
	return m.change(ctx, "delete movie", "movie", `DELETE FROM movies WHERE id = $1`, id)
}

// DeleteClip returns ENOTFOUND when no clip has the id.
func (m Methods) DeleteClip(ctx context.Context, id int64) error {
	return m.change(ctx, "delete clip", "clip", `DELETE FROM clips WHERE id = $1`, id)
}

// VodTypes returns every type, by id.
func (m Methods) VodTypes(ctx context.Context) ([]catalog.VodType, error) {
	types, err := All(ctx, m.DB, "list types", `SELECT id, name FROM movie_types ORDER BY id`, nil,
		func(row Scanner, t *catalog.VodType) error { return row.Scan(&t.ID, &t.Name) })
	if types == nil && err == nil {
		types = []catalog.VodType{}
	}
	return types, err
}
