package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// MovieIDByKey returns the id of the movie an import record with this
// id_code (when not empty) or else this slug would replace, the lowest
// id first as UpsertMovies picks it. ENOTFOUND when there is none.
func (s *Store) MovieIDByKey(ctx context.Context, idCode, slug string) (int64, error) {
	query, key := `SELECT id FROM movies WHERE slug = $1 ORDER BY id LIMIT 1`, slug
	if idCode != "" {
		query, key = `SELECT id FROM movies WHERE id_code = $1 ORDER BY id LIMIT 1`, idCode
	}
	var id int64
	err := s.pool.QueryRow(ctx, query, key).Scan(&id)
	if err == pgx.ErrNoRows {
		return 0, notFound("movie")
	}
	return id, translate(err, "find movie")
}

// DeleteMovie returns ENOTFOUND when no movie has the id.
func (s *Store) DeleteMovie(ctx context.Context, id int64) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM movies WHERE id = $1`, id)
	if err != nil {
		return translate(err, "delete movie")
	}
	if tag.RowsAffected() == 0 {
		return notFound("movie")
	}
	return nil
}
