package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// eachMovie streams every movie in id order ("ASC" or "DESC") from one
// query (one consistent snapshot); pgx reads rows off the connection as
// fn consumes them, so memory does not grow with the catalog.
func (s *Store) eachMovie(ctx context.Context, order string, fn func(m *catalog.Movie) error) error {
	var m catalog.Movie
	return s.eachRow(ctx, "read movies", `SELECT `+movieColumns+` FROM movies ORDER BY id `+order,
		func(row pgx.Row) error { return scanMovie(row, &m) }, func() error { return fn(&m) })
}

// ExportMovies streams every movie, lowest id first.
func (s *Store) ExportMovies(ctx context.Context, fn func(m *catalog.Movie) error) error {
	return s.eachMovie(ctx, "ASC", fn)
}

// ExportClips streams every clip, lowest id first, from one query.
func (s *Store) ExportClips(ctx context.Context, fn func(c *catalog.Clip) error) error {
	var c catalog.Clip
	return s.eachRow(ctx, "read clips", `SELECT `+clipColumns+` FROM clips ORDER BY id`,
		func(row pgx.Row) error { return scanClip(row, &c) }, func() error { return fn(&c) })
}

// eachRow runs query on a stream connection (where statement_timeout
// does not cut the walk of a whole table short), scanning each row with
// scan and then calling fn, which stops the walk with its error.
func (s *Store) eachRow(ctx context.Context, what, query string, scan func(pgx.Row) error, fn func() error) error {
	var fnErr error
	err := s.streamTx(ctx, pgx.ReadCommitted, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
			if fnErr = fn(); fnErr != nil {
				return fnErr
			}
		}
		return rows.Err()
	})
	if fnErr != nil {
		return fnErr
	}
	return translate(err, what)
}
