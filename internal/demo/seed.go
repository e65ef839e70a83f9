package demo

import (
	"context"

	"catalog/internal/catalog"
)

// BatchSize is how many generated records go into one transaction.
const BatchSize = 5000

// SeedClips inserts n generated clips, BatchSize per transaction,
// holding one batch in memory at a time.
func SeedClips(ctx context.Context, store catalog.ClipStore, g *Generator, n int) error {
	batch := make([]catalog.Clip, 0, min(n, BatchSize))
	for done := 0; done < n; done += len(batch) {
		batch = batch[:0]
		for range min(BatchSize, n-done) {
			batch = append(batch, g.Clip())
		}
		if err := store.ImportClips(ctx, batch); err != nil {
			return err
		}
	}
	return nil
}

// SeedMovies inserts n generated movies, BatchSize per transaction.
func SeedMovies(ctx context.Context, store catalog.MovieStore, g *Generator, n int) error {
	batch := make([]catalog.Movie, 0, min(n, BatchSize))
	for done := 0; done < n; done += len(batch) {
		batch = batch[:0]
		for range min(BatchSize, n-done) {
			batch = append(batch, g.Movie())
		}
		if err := store.UpsertMovies(ctx, batch); err != nil {
			return err
		}
	}
	return nil
}
