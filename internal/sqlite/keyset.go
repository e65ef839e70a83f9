package sqlite

import (
	"context"
	"slices"

	"catalog/internal/catalog"
)

var _ catalog.KeysetStore = (*Store)(nil)

// ClipIDs walks the ids of one platform's clips (or all), highest first,
// with the clips' data version, in one read transaction. The ids come from the
// small (platform, id) index rather than the wide table; the whole list
// is gathered from it and sorted here, which reads a fraction of the
// pages a table scan would.
func (s *Store) ClipIDs(ctx context.Context, platform string, fn func(id int64)) (int64, error) {
	query, args := `SELECT id FROM clips INDEXED BY clips_platform_id`, []any(nil)
	if platform != "" {
		query, args = `SELECT id FROM clips WHERE platform = ? ORDER BY id DESC`, []any{platform}
	}
	return s.walkIDs(ctx, "walk clip ids", "clip_version", query, args, platform == "", fn)
}

// MovieIDs walks every movie id, highest first, with the movies' version,
// in one read transaction, from the narrow (updated_at, id) index.
func (s *Store) MovieIDs(ctx context.Context, fn func(id int64)) (int64, error) {
	return s.walkIDs(ctx, "walk movie ids", "movie_version", `SELECT id FROM movies INDEXED BY movies_changed`, nil, true, fn)
}

func (s *Store) walkIDs(ctx context.Context, what, versionCol, query string, args []any, sortHere bool, fn func(int64)) (int64, error) {
	tx, done, err := s.beginStream(ctx, s.stream.IDs)
	if err != nil {
		return 0, translate(err, what)
	}
	defer done()
	var version int64
	if err := tx.QueryRowContext(ctx, `SELECT `+versionCol+` FROM meta WHERE id = 1`).Scan(&version); err != nil {
		return 0, translate(err, what)
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, translate(err, what)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, translate(err, what)
		}
		if sortHere {
			ids = append(ids, id)
		} else {
			fn(id)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, translate(err, what)
	}
	if sortHere {
		slices.Sort(ids)
		for i := len(ids) - 1; i >= 0; i-- {
			fn(ids[i])
		}
	}
	return version, nil
}

// ClipsFrom returns up to limit clips with id <= from, highest first,
// after passing over skip of them: a seek on the primary key (or the
// (platform, id) index), never a scan from the top.
func (s *Store) ClipsFrom(ctx context.Context, platform string, from, skip, limit int64) ([]catalog.Clip, error) {
	ctx = pointRead(ctx) // a seek passes over fewer than cache.Stride rows
	query := `SELECT ` + clipColumns + ` FROM clips WHERE id <= ? ORDER BY id DESC LIMIT ? OFFSET ?`
	args := []any{from, limit, skip}
	if platform != "" {
		query = `SELECT ` + clipColumns + ` FROM clips WHERE platform = ? AND id <= ? ORDER BY id DESC LIMIT ? OFFSET ?`
		args = append([]any{platform}, args...)
	}
	return queryAll(ctx, s, "list clips", query, args, true, limit, scanClip)
}

// MoviesFrom returns up to limit movies with id <= from, highest first,
// after passing over skip of them. Pages without long fields read only
// the short columns: decoding a synopsis and twelve list columns per row
// was most of a deep page's cost.
func (s *Store) MoviesFrom(ctx context.Context, from, skip, limit int64, fields catalog.FieldSet) ([]catalog.Movie, error) {
	ctx = pointRead(ctx) // a seek passes over fewer than cache.Stride rows
	short := catalog.ShortFieldsOnly(fields)
	columns := movieColumns
	if short {
		columns = shortMovieColumns
	}
	return queryAll(ctx, s, "list movies", `SELECT `+columns+` FROM movies WHERE id <= ? ORDER BY id DESC LIMIT ? OFFSET ?`,
		[]any{from, limit, skip}, true, limit, newMovieScan(short).into)
}
