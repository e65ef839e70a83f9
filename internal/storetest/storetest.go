// Package storetest is the one behaviour suite every catalog.Store
// engine must pass. Each engine's tests call Run with a function that
// opens a fresh, migrated, empty store, so SQLite and PostgreSQL are held
// to the same rules (contract 2 for search, paging and totals).
package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// Run runs every behaviour test against stores made by open, as
// subtests. open must return a fresh, migrated, empty store and register
// its own cleanup with t.
func Run(t *testing.T, open func(t *testing.T) catalog.Store) {
	t.Run("Ping", func(t *testing.T) {
		s := open(t)
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: got %v, want nil", err)
		}
	})
	t.Run("Clips", func(t *testing.T) { runClips(t, open) })
	t.Run("Search", func(t *testing.T) { runSearch(t, open) })
	t.Run("Movies", func(t *testing.T) { runMovies(t, open) })
	t.Run("MovieEdits", func(t *testing.T) { runMovieEdits(t, open) })
	t.Run("Writes", func(t *testing.T) { runWrites(t, open) })
	t.Run("Vods", func(t *testing.T) { runVods(t, open) })
	t.Run("Admins", func(t *testing.T) { runAdmins(t, open) })
	t.Run("Tokens", func(t *testing.T) { runTokens(t, open) })
	runSources(t, open)
	t.Run("DataVersion", func(t *testing.T) { runDataVersion(t, open) })
	t.Run("Export", func(t *testing.T) { runExport(t, open) })
	t.Run("Deadline", func(t *testing.T) { runDeadline(t, open) })
	t.Run("IDs", func(t *testing.T) { runIDs(t, open) })
	t.Run("Identity", func(t *testing.T) { runIdentity(t, open) })
	t.Run("Links", func(t *testing.T) { runLinks(t, open) })
	t.Run("Hits", func(t *testing.T) { runHits(t, open) })
}

// wantCode fails unless err carries the catalog error code want.
func wantCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := catalog.ErrorCode(err); got != want {
		tb.Fatalf("error code: got %q (%v), want %q", got, err, want)
	}
}

func noErr(tb testing.TB, err error, what string) {
	tb.Helper()
	if err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
}

func page(n, limit int64) catalog.Paging { return catalog.Paging{Page: n, Limit: limit} }

// firstPage is a page large enough for every test list.
var firstPage = page(1, catalog.MaxLimit)

// nowSecond is the current time as the stores keep it.
func nowSecond() time.Time { return catalog.StoredNow() }

// wantTimeBetween fails unless got lies in [lo, hi] and is UTC with
// whole seconds.
func wantTimeBetween(tb testing.TB, what string, got, lo, hi time.Time) {
	tb.Helper()
	if got.Before(lo) || got.After(hi) {
		tb.Fatalf("%s: got %v, want between %v and %v", what, got, lo, hi)
	}
	if got.Location() != time.UTC {
		tb.Fatalf("%s: got location %v, want UTC", what, got.Location())
	}
	if got.Nanosecond() != 0 {
		tb.Fatalf("%s: got %v, want whole seconds", what, got)
	}
}

func wantIDs(tb testing.TB, what string, got, want []int64) {
	tb.Helper()
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		tb.Fatalf("%s: got ids %v, want %v", what, got, want)
	}
}

var errFromFn = errors.New("storetest: fn refuses")
