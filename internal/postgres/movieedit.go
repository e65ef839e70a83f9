package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// MovieIDByKey returns the id of the movie an import record with this
// id_code (when not empty) or else this slug would replace, the lowest
// id first as UpsertMovies picks it. ENOTFOUND when there is none.
func (s *Store) MovieIDByKey(ctx context.Context, idCode, slug string) (int64, error) {
	query, key := `SELECT id FROM movies m WHERE slug = $1 AND `+notCollected+` ORDER BY id LIMIT 1`, slug
	if idCode != "" {
		query, key = `SELECT id FROM movies m WHERE id_code = $1 AND `+notCollected+` ORDER BY id LIMIT 1`, idCode
	}
	var id int64
	err := s.pool.QueryRow(ctx, query, key).Scan(&id)
	if err == pgx.ErrNoRows {
		return 0, notFound("movie")
	}
	return id, translate(err, "find movie")
}

// updateMovieSQL writes one movie over the stored row $1; a row whose
// values all equal the stored ones is left alone (and keeps its time).
var updateMovieSQL = func() string {
	set := make([]string, len(movieDataColumns))
	vals := make([]string, len(movieDataColumns))
	for i, name := range movieDataColumns {
		vals[i] = "$" + strconv.Itoa(i+3)
		set[i] = name + " = " + vals[i]
	}
	return `UPDATE movies SET ` + strings.Join(set, ", ") + `, updated_at = $2 WHERE id = $1 AND (` +
		strings.Join(movieDataColumns, ", ") + `) IS DISTINCT FROM (` + strings.Join(vals, ", ") + `) RETURNING updated_at`
}()

// UpdateMovie writes m over the stored movie m.ID, never inserting:
// ENOTFOUND when there is none, so an edit never brings a deleted movie
// back. A change is stamped now, whatever m.UpdatedAt holds (the time
// the editor read).
func (s *Store) UpdateMovie(ctx context.Context, m *catalog.Movie) error {
	updated := catalog.StoredNow()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		args := catalog.AppendValues(append(make([]any, 0, len(movieWriteColumns)+2), m.ID, updated), m, movieWriteColumns)
		err := tx.QueryRow(ctx, updateMovieSQL, args...).Scan(&m.UpdatedAt)
		if err == pgx.ErrNoRows {
			err = tx.QueryRow(ctx, `SELECT updated_at FROM movies WHERE id = $1`, m.ID).Scan(&m.UpdatedAt)
		}
		if err == pgx.ErrNoRows {
			return notFound("movie")
		}
		return err
	})
	m.UpdatedAt = m.UpdatedAt.UTC()
	return translate(err, "update movie")
}
