package movieapi

import (
	"context"

	"catalog/internal/catalog"
	"catalog/internal/search"
)

// movieVersion is the version the movie service's caches key on: the
// movies' own when the store keeps one (a clip write then leaves cached
// movie answers alone), else the whole database's.
func movieVersion(store catalog.Store) func(context.Context) (int64, error) {
	if sl, ok := store.(catalog.SearchLog); ok {
		return func(ctx context.Context) (int64, error) { return sl.KindVersion(ctx, catalog.SearchMovies) }
	}
	return store.DataVersion
}

// searchMovies answers a text search (without ids or h) from the
// in-process index at (at least) version; ok is false while the index
// is not ready, and the database answers.
func (s *server) searchMovies(ctx context.Context, version int64, f catalog.MovieFilter) ([]catalog.Movie, int64, bool, error) {
	if s.search == nil || len(f.Terms) == 0 || len(f.IDs) > 0 || !f.ChangedSince.IsZero() {
		return nil, 0, false, nil
	}
	return search.Page(ctx, s.search, version, f.Terms, nil, f.Paging.Offset(), f.Paging.Limit,
		func(ids []int64) ([]catalog.Movie, error) {
			movies, _, err := s.store.ListMovies(ctx, catalog.MovieFilter{IDs: ids, Paging: catalog.Paging{Page: 1, Limit: int64(len(ids))}})
			return movies, err
		},
		func(m *catalog.Movie) (string, string) { return m.Name, "" })
}
