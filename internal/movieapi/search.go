package movieapi

import (
	"context"

	"catalog/internal/catalog"
	"catalog/internal/search"
)

// searchMovies answers a text search (without ids or h), or a deep page
// of the whole list, from the in-process index at (at least) version; ok
// is false while the index is not ready, and the database answers.
func (s *server) searchMovies(ctx context.Context, version int64, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, bool, error) {
	if s.search == nil || len(f.IDs) > 0 || !f.ChangedSince.IsZero() ||
		(len(f.Terms) == 0 && f.Paging.Offset() < catalog.DeepOffset) {
		return nil, 0, false, nil
	}
	load := func(ids []int64) ([]catalog.Movie, error) {
		movies, _, err := s.store.ListMovies(ctx, catalog.MovieFilter{IDs: ids, Paging: catalog.Paging{Page: 1, Limit: int64(len(ids))}})
		return movies, err
	}
	if len(f.Terms) == 0 && s.reads.Keyset != nil {
		// A page of the whole list is a run of consecutive ids: one seek
		// reads it, with only the columns fields needs.
		load = func(ids []int64) ([]catalog.Movie, error) {
			return s.reads.Keyset.MoviesFrom(ctx, ids[0], 0, int64(len(ids)), fields)
		}
	}
	return search.Page(ctx, s.search, version, f.Terms, nil, f.Paging.Offset(), f.Paging.Limit, load,
		func(m *catalog.Movie) (int64, string, string) { return m.ID, m.Name, "" })
}
