package cli

import (
	"context"
	"log/slog"

	"catalog/internal/catalog"
	"catalog/internal/search"
)

// startSearch starts building the in-process search indexes of both
// services in the background (the database answers searches until
// each is ready); nil when the store keeps no search log.
func startSearch(ctx context.Context, st catalog.Store, log *slog.Logger) (clips, movies *search.Live) {
	sl, ok := st.(catalog.SearchLog)
	if !ok {
		return nil, nil
	}
	clips = search.NewLive(sl, catalog.SearchClips, log.With("service", "clips"))
	movies = search.NewLive(sl, catalog.SearchMovies, log.With("service", "movies"))
	clips.Start(ctx)
	movies.Start(ctx)
	return clips, movies
}
