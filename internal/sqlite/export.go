package sqlite

import (
	"context"

	"catalog/internal/catalog"
)

// eachMovie streams every movie in id order ("ASC" or "DESC") from one
// read transaction (a consistent snapshot), reusing one Movie for every
// row: the driver steps the statement as rows are consumed, so memory
// does not grow with the catalog.
func (s *Store) eachMovie(ctx context.Context, order string, fn func(m *catalog.Movie) error) error {
	ms := newMovieScan()
	return s.eachRow(ctx, "read movies", `SELECT `+movieColumns+` FROM movies ORDER BY id `+order,
		ms.scan, func() error { return fn(&ms.m) })
}

// ExportMovies streams every movie, lowest id first.
func (s *Store) ExportMovies(ctx context.Context, fn func(m *catalog.Movie) error) error {
	return s.eachMovie(ctx, "ASC", fn)
}

// ExportClips streams every clip, lowest id first, from one read
// transaction, reusing one Clip for every row.
func (s *Store) ExportClips(ctx context.Context, fn func(c *catalog.Clip) error) error {
	var c catalog.Clip
	return s.eachRow(ctx, "read clips", `SELECT `+clipColumns+` FROM clips ORDER BY id`,
		func(row scanner) error { return scanClip(row, &c) }, func() error { return fn(&c) })
}

// eachRow runs query in one read transaction on a stream connection,
// scanning each row with scan and then calling fn, which stops the walk
// with its error.
func (s *Store) eachRow(ctx context.Context, what, query string, scan func(scanner) error, fn func() error) error {
	tx, done, err := s.beginStream(ctx)
	if err != nil {
		return translate(err, what)
	}
	defer done()
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return translate(err, what)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return translate(err, what)
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return translate(rows.Err(), what)
}
