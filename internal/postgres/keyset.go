package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

var _ catalog.KeysetStore = (*Store)(nil)

// ClipIDs walks the ids of one platform's clips (or all), highest first,
// with the clips' data version, in one repeatable-read transaction (one
// snapshot for both) on a stream connection.
func (s *Store) ClipIDs(ctx context.Context, platform string, fn func(id int64)) (int64, error) {
	if platform == "" {
		return s.walkIDs(ctx, "walk clip ids", "clip_version", fn, `SELECT id FROM clips ORDER BY id DESC`)
	}
	return s.walkIDs(ctx, "walk clip ids", "clip_version", fn, `SELECT id FROM clips WHERE platform = $1 ORDER BY id DESC`, platform)
}

// MovieIDs walks every movie id, highest first, with the movies' version.
func (s *Store) MovieIDs(ctx context.Context, fn func(id int64)) (int64, error) {
	return s.walkIDs(ctx, "walk movie ids", "movie_version", fn, `SELECT id FROM movies ORDER BY id DESC`)
}

func (s *Store) walkIDs(ctx context.Context, what, versionCol string, fn func(int64), query string, args ...any) (int64, error) {
	var version int64
	err := s.streamTx(ctx, s.stream.IDs, pgx.RepeatableRead, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT `+versionCol+` FROM meta`).Scan(&version); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id int64
		for rows.Next() {
			if err := rows.Scan(&id); err != nil {
				return err
			}
			fn(id)
		}
		return rows.Err()
	})
	return version, translate(err, what)
}

// ClipsFrom returns up to limit clips with id <= from, highest first,
// after passing over skip of them: an index seek, not a scan from the
// top.
func (s *Store) ClipsFrom(ctx context.Context, platform string, from, skip, limit int64) ([]catalog.Clip, error) {
	query := `SELECT ` + clipColumns + ` FROM clips WHERE id <= $1 ORDER BY id DESC LIMIT $2 OFFSET $3`
	args := []any{from, limit, skip}
	if platform != "" {
		query = `SELECT ` + clipColumns + ` FROM clips WHERE id <= $1 AND platform = $4 ORDER BY id DESC LIMIT $2 OFFSET $3`
		args = append(args, platform)
	}
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, translate(err, "list clips")
	}
	clips, err := collect(rows, limit, scanClip)
	return clips, translate(err, "list clips")
}

// MoviesFrom returns up to limit movies with id <= from, highest first,
// after passing over skip of them. Pages without long fields read only
// the short columns.
func (s *Store) MoviesFrom(ctx context.Context, from, skip, limit int64, fields catalog.FieldSet) ([]catalog.Movie, error) {
	short := catalog.ShortFieldsOnly(fields)
	columns, scan := movieColumns, scanMovie
	if short {
		columns, scan = shortMovieColumns, scanShortMovie
	}
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM movies WHERE id <= $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, from, limit, skip)
	if err != nil {
		return nil, translate(err, "list movies")
	}
	movies, err := collect(rows, limit, scan)
	return movies, translate(err, "list movies")
}
