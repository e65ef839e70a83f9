package cli

import (
	"context"
	"log/slog"

	"catalog/internal/catalog"
	"catalog/internal/memtune"
	"catalog/internal/search"
)

// startSearch starts building the in-process search indexes of both
// services in the background; each service is "building" (health) until
// its index is ready.
func startSearch(ctx context.Context, st catalog.Store, log *slog.Logger) (clips, movies *search.Live) {
	memtune.SetGCPercent()
	clips = search.NewLive(st, catalog.SearchClips, log.With("service", "clips"))
	movies = search.NewLive(st, catalog.SearchMovies, log.With("service", "movies"))
	clips.Start(ctx)
	movies.Start(ctx)
	go memtune.LimitMemory(ctx, memtune.Every, func() bool { return clips.Settled() && movies.Settled() })
	return clips, movies
}
