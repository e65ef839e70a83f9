package sqlite

import (
	"context"

	"catalog/internal/catalog"
)

// The MacCMS resource API's reads (contract 6). Types are kept by the
// triggers and the generated type_name column of migration 00003, so no
// writer here needs to know of them.

// VodsByID returns the movies with the given ids with their types, in
// the order of ids.
func (s *Store) VodsByID(ctx context.Context, ids []int64) ([]catalog.Vod, error) {
	if len(ids) == 0 {
		return []catalog.Vod{}, nil
	}
	vods, err := byID(ctx, s, "list movies", vodSelect+` FROM movies`+vodTypeJoin, "movies.id", ids,
		newVodScan(), vodID)
	if err != nil {
		return nil, err
	}
	return catalog.InOrder(ids, vods, vodID), nil
}

func vodID(v *catalog.Vod) int64 { return v.ID }

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
