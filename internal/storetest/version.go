package storetest

import (
	"context"
	"testing"

	"catalog/internal/catalog"
)

// runDataVersion checks that caches keyed on DataVersion see every clip
// and movie write, and are not invalidated by reads.
func runDataVersion(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	s := open(t)
	version := func() int64 {
		t.Helper()
		v, err := s.DataVersion(ctx)
		noErr(t, err, "DataVersion")
		return v
	}
	clip := newClip("versioned", "JAV")
	movie := newMovie(t, "Versioned", "V-1")
	writes := []struct {
		name string
		do   func() error
	}{
		{"CreateClip", func() error { return s.CreateClip(ctx, &clip) }},
		{"UpdateClip", func() error {
			_, err := s.UpdateClip(ctx, clip.ID, func(c *catalog.Clip) error { c.Title = "changed"; return nil })
			return err
		}},
		{"ImportClips new", func() error { return s.ImportClips(ctx, []catalog.Clip{newClip("imported", "")}) }},
		{"ImportClips replace", func() error {
			c := newClip("replaced", "")
			c.ID = clip.ID
			return s.ImportClips(ctx, []catalog.Clip{c})
		}},
		{"DeleteClip", func() error { return s.DeleteClip(ctx, clip.ID) }},
		{"UpsertMovies insert", func() error { return s.UpsertMovies(ctx, []catalog.Movie{movie}) }},
		{"UpsertMovies change", func() error {
			m := movie
			m.Synopsis = "changed"
			return s.UpsertMovies(ctx, []catalog.Movie{m})
		}},
	}
	reads := func() {
		t.Helper()
		_, err := s.ClipsByID(ctx, []int64{1, 2})
		noErr(t, err, "ClipsByID")
		_, err = s.VodsByID(ctx, []int64{1, 2})
		noErr(t, err, "VodsByID")
		_, err = s.SearchDocs(ctx, catalog.SearchClips, func(catalog.SearchDoc) {})
		noErr(t, err, "SearchDocs")
		_, err = s.CountMovies(ctx)
		noErr(t, err, "CountMovies")
		noErr(t, s.EachMovie(ctx, func(*catalog.Movie) error { return nil }), "EachMovie")
		noErr(t, s.Ping(ctx), "Ping")
		_, _ = s.GetClip(ctx, 1)
		_, _ = s.GetMovie(ctx, 1)
	}
	seen := map[int64]string{}
	prev := version()
	seen[prev] = "start"
	for _, w := range writes {
		noErr(t, w.do(), w.name)
		v := version()
		if by, dup := seen[v]; dup {
			t.Fatalf("after %s: DataVersion %d, the same as after %s", w.name, v, by)
		}
		seen[v] = w.name
		reads()
		if after := version(); after != v {
			t.Fatalf("reads after %s changed DataVersion from %d to %d", w.name, v, after)
		}
		prev = v
	}
	_ = prev
}
