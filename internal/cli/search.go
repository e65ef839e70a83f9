package cli

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"

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
	if os.Getenv("GOGC") == "" {
		// The indexes are a large, long-lived heap with few pointers (a
		// GC cycle marks little of it), and the default GOGC of 100 lets
		// garbage grow to their size again before collecting. At 1M+1M
		// under search load, 20 kept the peak RSS at 478 MB (100: 606 MB)
		// with no loss of throughput measurable on the shared test machine.
		debug.SetGCPercent(20)
	}
	clips = search.NewLive(sl, catalog.SearchClips, log.With("service", "clips"))
	movies = search.NewLive(sl, catalog.SearchMovies, log.With("service", "movies"))
	clips.Start(ctx)
	movies.Start(ctx)
	go limitMemory(ctx, limitEvery, clips, movies)
	return clips, movies
}
