package demo_test

import (
	"context"
	"testing"
	"time"

	"catalog/internal/demo"
)

// A failing write stops the seed with its error (and does not leave the
// generator blocked); every generated record reaches the store otherwise.
func TestSeedStopsOnWriteError(t *testing.T) {
	s := openSQLite(t)
	g := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	n := demo.BatchSize + 1
	if err := demo.SeedMovies(context.Background(), s, g, n); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CountMovies(context.Background()); got != int64(n) {
		t.Errorf("movies: got %d, want %d", got, n)
	}
	s.Close()
	if err := demo.SeedClips(context.Background(), s, g, 2*demo.BatchSize); err == nil {
		t.Error("seed into a closed store: got nil error")
	}
}
