package postgres

import (
	"context"

	"catalog/internal/catalog"
)

// moviesByIDs answers ListMovies when the filter is only ids and the
// first page holds all of them (how a search answered by the index
// loads its page): the rows read are then exactly the matches, so their
// number is the exact total and the count statement, and the list
// budget it needs, are skipped. ok is false for any other filter.
func (s *Store) moviesByIDs(ctx context.Context, f catalog.MovieFilter) (page []catalog.Movie, ok bool, err error) {
	if len(f.IDs) == 0 || len(f.Terms) > 0 || !f.ChangedSince.IsZero() ||
		f.Paging.Offset() != 0 || int64(len(f.IDs)) > f.Paging.Limit {
		return nil, false, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+movieColumns+` FROM movies WHERE id = ANY($1) ORDER BY id DESC`, f.IDs)
	if err != nil {
		return nil, true, translate(err, "list movies")
	}
	page, err = collect(rows, int64(len(f.IDs)), scanMovie)
	return page, true, translate(err, "list movies")
}
