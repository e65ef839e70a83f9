package sqlite

import (
	"context"
	"strconv"

	"catalog/internal/catalog"
)

// The MacCMS resource API's reads (contract 6). Types are kept by the
// triggers and the generated type_name column of migration 00003, so no
// writer here needs to know of them.

// ListVods returns one page, last change first, and the exact total.
// The page's ids come from an index-only subquery (movies_changed or
// movies_type_changed), so a deep OFFSET skips index entries, not rows.
func (s *Store) ListVods(ctx context.Context, f catalog.VodFilter) ([]catalog.Vod, int64, error) {
	q := newSearch("movies", "name_fold", f.Terms)
	if len(f.IDs) > 0 {
		q.conds = append(q.conds, `movies.id IN (SELECT value FROM json_each(?))`)
		q.args = append(q.args, idsJSON(f.IDs))
	}
	if f.TypeID != 0 {
		q.conds = append(q.conds, `movies.type_name = (SELECT name FROM movie_types WHERE id = ?)`)
		q.args = append(q.args, f.TypeID)
	}
	if !f.ChangedSince.IsZero() {
		q.conds = append(q.conds, `movies.updated_at >= ?`)
		q.args = append(q.args, ceilUnix(f.ChangedSince))
	}
	if !f.Years.IsZero() {
		q.conds = append(q.conds, `movies.year BETWEEN ? AND ? AND movies.year GLOB '[0-9][0-9][0-9][0-9]'`)
		q.args = append(q.args, f.Years.From, f.Years.To)
	}
	if f.PlayKind != 0 {
		q.conds = append(q.conds, `movies.play_kinds & ? <> 0`)
		q.args = append(q.args, f.PlayKind)
	}
	cache := len(f.Terms) <= maxCachedTerms
	otherFilters := len(f.IDs) > 0 || f.TypeID != 0 || !f.ChangedSince.IsZero() || !f.Years.IsZero() || f.PlayKind != 0
	count := func() (int64, error) { return s.countMovieMatches(ctx, q, len(f.Terms) > 0, otherFilters, cache) }
	query := vodSelect + `
FROM (SELECT movies.id FROM ` + q.from + where(q.conds) + `
      ORDER BY ` + f.Order("movies.") + ` LIMIT ? OFFSET ?) AS page
JOIN movies ON movies.id = page.id` + vodTypeJoin + `
ORDER BY ` + f.Order("movies.")
	return countAndPage(ctx, s, count, len(q.conds) == 0, query, q.args, cache, f.Paging, newVodScan(), "movies")
}

// countMovieMatches is the exact number of movies q matches: with
// search terms from countQuery (the FTS index alone when nothing else
// filters), with other filters by counting, else the trigger-kept count.
func (s *Store) countMovieMatches(ctx context.Context, q search, terms, otherFilters, cache bool) (int64, error) {
	switch {
	case terms:
		return s.count(ctx, q.countQuery("movies", otherFilters), q.args, cache)
	case len(q.conds) > 0:
		return s.count(ctx, `SELECT count(*) FROM movies`+where(q.conds), q.args, cache)
	}
	return s.count(ctx, `SELECT movie_count FROM meta WHERE id = 1`, nil, true)
}

// vodSelect and vodTypeJoin read movies with their types.
var vodSelect = `SELECT ` + qualified("movies", movieColumns) + `, coalesce(movie_types.id, 0), coalesce(movies.type_name, '')`

const vodTypeJoin = `
LEFT JOIN movie_types ON movie_types.name = movies.type_name`

// newVodScan scans rows of vodSelect's columns, reusing one movieScan.
func newVodScan() func(scanner, *catalog.Vod) error {
	ms := newMovieScan()
	var typeID int64
	var typeName string
	ms.dest = append(ms.dest, &typeID, &typeName)
	return func(row scanner, v *catalog.Vod) error {
		err := ms.scan(row)
		*v = catalog.Vod{Movie: ms.m, TypeID: typeID, TypeName: typeName}
		return err
	}
}

// VodIDs walks every movie id in change order, with the movies' version,
// from the movies_changed index alone.
func (s *Store) VodIDs(ctx context.Context, fn func(id int64)) (int64, error) {
	return s.walkIDs(ctx, "walk movie ids", "movie_version", `SELECT id FROM movies ORDER BY updated_at DESC, id DESC`, nil, fn)
}

// VodsFrom returns up to limit movies in change order, starting at the
// movie from, after passing over skip of them: a seek on movies_changed.
func (s *Store) VodsFrom(ctx context.Context, from, skip, limit int64) ([]catalog.Vod, error) {
	ctx = pointRead(ctx) // a seek passes over fewer than cache.Stride rows
	return queryAll(ctx, s, "list movies", vodSelect+` FROM movies`+vodTypeJoin+`
WHERE (movies.updated_at, movies.id) <= (SELECT updated_at, id FROM movies WHERE id = ?)
ORDER BY movies.updated_at DESC, movies.id DESC LIMIT ? OFFSET ?`, []any{from, limit, skip}, true, limit, newVodScan())
}

// VodTypes returns every type, by id.
func (s *Store) VodTypes(ctx context.Context) ([]catalog.VodType, error) {
	return queryAll(ctx, s, "list types", `SELECT id, name FROM movie_types ORDER BY id`, nil, true, 16,
		func(row scanner, t *catalog.VodType) error { return row.Scan(&t.ID, &t.Name) })
}

// idsJSON is a list of ids as one JSON array parameter, which keeps one
// statement shape for any number of ids.
func idsJSON(ids []int64) string {
	b := make([]byte, 0, 2+len(ids)*8)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// walkIDs calls fn with every id query returns, in its order, and
// returns versionCol of the same read transaction.
func (s *Store) walkIDs(ctx context.Context, what, versionCol, query string, args []any, fn func(int64)) (int64, error) {
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
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, translate(err, what)
		}
		fn(id)
	}
	if err := rows.Err(); err != nil {
		return 0, translate(err, what)
	}
	return version, nil
}
