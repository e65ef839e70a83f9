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

// VodsByID returns the movies with the given ids with their types, in
// the order of ids.
func (s *Store) VodsByID(ctx context.Context, ids []int64) ([]catalog.Vod, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+vodPageColumns+`
FROM movies m LEFT JOIN movie_types t ON t.name = m.type_name
WHERE m.id = ANY($1)`, ids)
	if err != nil {
		return nil, translate(err, "list movies")
	}
	vods, err := collect(rows, int64(len(ids)), scanVod)
	if err != nil {
		return nil, translate(err, "list movies")
	}
	return catalog.InOrder(ids, vods, func(v *catalog.Vod) int64 { return v.ID }), nil
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
