package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
)

// MovieIDByKey returns the id of the movie an import record with this
// id_code (when not empty) or else this slug would replace: the same
// lookups UpsertMovies makes. ENOTFOUND when there is none.
func (s *Store) MovieIDByKey(ctx context.Context, idCode, slug string) (int64, error) {
	query, key := movieBySlug, slug
	if idCode != "" {
		query, key = movieByIDCode, idCode
	}
	if err := s.takeReader(ctx, "find movie"); err != nil {
		return 0, err
	}
	defer s.readSlots.Release(1)
	var id, updated int64
	err := s.reader.QueryRowContext(ctx, query, key).Scan(&id, &updated)
	if err == sql.ErrNoRows {
		return 0, notFound("movie")
	}
	return id, translate(err, "find movie")
}

// UpdateMovie writes m over the stored movie m.ID, in a transaction of
// its own (not the bulk writer's): ENOTFOUND when there is none, so an
// edit never brings a deleted movie back. A change is stamped now,
// whatever m.UpdatedAt holds (the time the editor read).
func (s *Store) UpdateMovie(ctx context.Context, m *catalog.Movie) error {
	m.UpdatedAt = time.Time{}
	return s.writeTx(ctx, "update movie", func(tx *sql.Tx) error {
		w := &movieWriter{txStmts: txStmts{tx: tx, what: "update movie"}, stamp: now()}
		defer w.close()
		var id, stored int64
		err := tx.QueryRowContext(ctx, movieByID, m.ID).Scan(&id, &stored)
		if err == sql.ErrNoRows {
			return notFound("movie")
		}
		if err != nil {
			return translate(err, "update movie")
		}
		return w.update(ctx, m, id, stored)
	})
}
