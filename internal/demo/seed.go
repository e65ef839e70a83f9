package demo

import (
	"context"

	"catalog/internal/catalog"
)

// BatchSize is how many generated records go into one transaction:
// large enough that the per-transaction index flushes do not dominate,
// small enough that a batch's memory stays modest (BENCHMARKS.md, Seed).
const BatchSize = 20000

// SeedClips inserts n generated clips, BatchSize per transaction.
func SeedClips(ctx context.Context, store catalog.ClipStore, g *Generator, n int) error {
	return seed(ctx, n, g.Clip, store.ImportClips)
}

// SeedMovies inserts n generated movies, BatchSize per transaction.
func SeedMovies(ctx context.Context, store catalog.MovieStore, g *Generator, n int) error {
	return seed(ctx, n, g.Movie, store.UpsertMovies)
}

// seed writes n records made by next, BatchSize per transaction. The
// next batch is generated while the store writes the previous one, so
// generation runs on another core instead of adding to the time; two
// batches at most are in memory.
func seed[T any](ctx context.Context, n int, next func() T, write func(context.Context, []T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	full := make(chan []T)
	free := make(chan []T, 2)
	for range 2 {
		free <- make([]T, 0, min(n, BatchSize))
	}
	go func() {
		defer close(full)
		for done := 0; done < n; {
			var batch []T
			select {
			case batch = <-free:
			case <-ctx.Done():
				return
			}
			batch = batch[:0]
			for range min(BatchSize, n-done) {
				batch = append(batch, next())
			}
			done += len(batch)
			select {
			case full <- batch:
			case <-ctx.Done():
				return
			}
		}
	}()
	for batch := range full {
		if err := write(ctx, batch); err != nil {
			cancel()
			for range full { // let the generator finish
			}
			return err
		}
		free <- batch
	}
	return ctx.Err()
}
