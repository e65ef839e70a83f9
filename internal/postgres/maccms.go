package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// The MacCMS resource API's reads (contract 6). Types are kept by the
// triggers and the generated type_name column of migration 00003, so no
// writer here needs to know of them.

// vodPageColumns are movieColumns of the alias m, then the type.
var vodPageColumns = "m.id, " + catalog.ColumnNames(movieReadColumns, "m.") +
	", m.updated_at, coalesce(t.id, 0), coalesce(m.type_name, '')"

// ListVods returns one page, last change first, and the exact total, in
// one round trip. The page's ids come from a subquery that the
// movies_changed (or movies_type_changed) index answers in order.
func (s *Store) ListVods(ctx context.Context, f catalog.VodFilter) ([]catalog.Vod, int64, error) {
	var w where
	for _, t := range f.Terms {
		w.add(`name_fold LIKE ?`, likePattern(t))
	}
	if len(f.IDs) > 0 {
		w.add(`id = ANY(?)`, f.IDs)
	}
	if f.TypeID != 0 {
		w.add(`type_name = (SELECT name FROM movie_types WHERE id = ?)`, f.TypeID)
	}
	if !f.ChangedSince.IsZero() {
		w.add(`updated_at >= ?`, f.ChangedSince)
	}
	if !f.Years.IsZero() {
		w.add(`year COLLATE "C" >= ?`, f.Years.From)
		w.add(`year COLLATE "C" <= ?`, f.Years.To)
		w.conds = append(w.conds, `year ~ '^[0-9]{4}$'`)
	}
	if f.PlayKind != 0 {
		w.add(`play_kinds & ? <> 0`, f.PlayKind)
	}
	cond := w.String()
	countArgs := append([]any(nil), w.args...)
	countSQL := `SELECT n FROM movie_count`
	if len(w.conds) > 0 {
		countSQL = `SELECT count(*) FROM movies` + cond
	}
	pageSQL := `SELECT ` + vodPageColumns + `
FROM (SELECT id FROM movies` + cond + ` ORDER BY ` + f.Order("") + w.page(f.Paging) + `) AS page
JOIN movies m ON m.id = page.id
LEFT JOIN movie_types t ON t.name = m.type_name
ORDER BY ` + f.Order("m.")
	return countAndPage(ctx, s, len(f.Terms) > 0, countSQL, countArgs, len(w.conds) == 0, f.Paging.Offset(), pageSQL, w.args, f.Paging.Limit, scanVod, "movies")
}

// VodIDs walks every movie id in change order, with the movies' version.
func (s *Store) VodIDs(ctx context.Context, fn func(id int64)) (int64, error) {
	return s.walkIDs(ctx, "walk movie ids", "movie_version", fn, `SELECT id FROM movies ORDER BY updated_at DESC, id DESC`)
}

// VodsFrom returns up to limit movies in change order, starting at the
// movie from, after passing over skip of them: a seek on movies_changed.
func (s *Store) VodsFrom(ctx context.Context, from, skip, limit int64) ([]catalog.Vod, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+vodPageColumns+`
FROM movies m LEFT JOIN movie_types t ON t.name = m.type_name
WHERE (m.updated_at, m.id) <= (SELECT updated_at, id FROM movies WHERE id = $1)
ORDER BY m.updated_at DESC, m.id DESC LIMIT $2 OFFSET $3`, from, limit, skip)
	if err != nil {
		return nil, translate(err, "list movies")
	}
	vods, err := collect(rows, limit, scanVod)
	return vods, translate(err, "list movies")
}

func scanVod(row pgx.Row, v *catalog.Vod) error {
	return scanMovie(extraScan{row, []any{&v.TypeID, &v.TypeName}}, &v.Movie)
}

// extraScan scans the columns that follow a movie's into extra.
type extraScan struct {
	row   pgx.Row
	extra []any
}

func (e extraScan) Scan(dest ...any) error { return e.row.Scan(append(dest, e.extra...)...) }

// VodTypes returns every type, by id.
func (s *Store) VodTypes(ctx context.Context) ([]catalog.VodType, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name FROM movie_types ORDER BY id`)
	if err != nil {
		return nil, translate(err, "list types")
	}
	types, err := pgx.AppendRows(make([]catalog.VodType, 0, 16), rows, pgx.RowToStructByPos[catalog.VodType])
	return types, translate(err, "list types")
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
