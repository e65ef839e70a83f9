package sqlite

import (
	"context"
	"database/sql"
)

// MovieIDByKey returns the id of the movie an import record with this
// id_code (when not empty) or else this slug would replace: the same
// lookups UpsertMovies makes. ENOTFOUND when there is none.
func (s *Store) MovieIDByKey(ctx context.Context, idCode, slug string) (int64, error) {
	query, key := movieBySlug, slug
	if idCode != "" {
		query, key = movieByIDCode, idCode
	}
	var id, updated int64
	err := s.reader.QueryRowContext(ctx, query, key).Scan(&id, &updated)
	if err == sql.ErrNoRows {
		return 0, notFound("movie")
	}
	return id, translate(err, "find movie")
}

// DeleteMovie returns ENOTFOUND when no movie has the id.
func (s *Store) DeleteMovie(ctx context.Context, id int64) error {
	res, err := s.writer.ExecContext(ctx, `DELETE FROM movies WHERE id = ?`, id)
	if err != nil {
		return translate(err, "delete movie")
	}
	n, err := res.RowsAffected()
	if err != nil {
		return translate(err, "delete movie")
	}
	if n == 0 {
		return notFound("movie")
	}
	return nil
}
