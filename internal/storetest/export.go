package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"catalog/internal/catalog"
)

// runExport checks ExportMovies and ExportClips: every record, lowest id
// first, equal to what the getters return, stoppable by fn.
func runExport(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	t.Run("Movies", func(t *testing.T) {
		s := open(t)
		var want []catalog.Movie
		for i := range 5 {
			m := newMovie(t, fmt.Sprintf("Export %d", i), fmt.Sprintf("X-%d", i))
			upsert(t, s, &m)
			want = append(want, getMovie(t, s, m.ID))
		}
		var got []catalog.Movie
		noErr(t, s.ExportMovies(ctx, func(m *catalog.Movie) error {
			got = append(got, *m)
			return nil
		}), "ExportMovies")
		if len(got) != len(want) {
			t.Fatalf("ExportMovies: got %d movies, want %d", len(got), len(want))
		}
		for i := range want {
			if !sameMovie(got[i], want[i]) {
				t.Fatalf("ExportMovies row %d:\n got %+v\nwant %+v", i, got[i], want[i])
			}
		}
		wantStops(t, "ExportMovies", func(fn func() error) error {
			return s.ExportMovies(ctx, func(*catalog.Movie) error { return fn() })
		})
	})
	t.Run("Clips", func(t *testing.T) {
		s := open(t)
		var want []catalog.Clip
		for i := range 5 {
			c := createClip(t, s, fmt.Sprintf("Export %d", i), "JAV")
			want = append(want, getClip(t, s, c.ID))
		}
		var got []catalog.Clip
		noErr(t, s.ExportClips(ctx, func(c *catalog.Clip) error {
			got = append(got, *c)
			return nil
		}), "ExportClips")
		if len(got) != len(want) {
			t.Fatalf("ExportClips: got %d clips, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("ExportClips row %d:\n got %+v\nwant %+v", i, got[i], want[i])
			}
		}
		wantStops(t, "ExportClips", func(fn func() error) error {
			return s.ExportClips(ctx, func(*catalog.Clip) error { return fn() })
		})
	})
	t.Run("Empty", func(t *testing.T) {
		s := open(t)
		noErr(t, s.ExportMovies(ctx, func(m *catalog.Movie) error {
			t.Fatalf("ExportMovies on an empty store called fn with %+v", *m)
			return nil
		}), "ExportMovies")
		noErr(t, s.ExportClips(ctx, func(c *catalog.Clip) error {
			t.Fatalf("ExportClips on an empty store called fn with %+v", *c)
			return nil
		}), "ExportClips")
	})
}

// wantStops checks that walk stops at the first error of its callback
// and returns that error.
func wantStops(t *testing.T, what string, walk func(fn func() error) error) {
	t.Helper()
	stop := errors.New("stop")
	calls := 0
	err := walk(func() error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 {
		t.Fatalf("%s stopping: got %v after %d calls, want fn's error after 3", what, err, calls)
	}
}

func getClip(tb testing.TB, s catalog.Store, id int64) catalog.Clip {
	tb.Helper()
	c, err := s.GetClip(context.Background(), id)
	noErr(tb, err, "GetClip")
	return c
}
