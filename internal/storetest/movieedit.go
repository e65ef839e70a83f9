package storetest

import (
	"context"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runMovieEdits checks what the console needs beyond imports: finding
// the movie a record would replace, and deleting one (contract 8).
func runMovieEdits(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	s := open(t)
	a, b := newMovie(t, "Keyed by code", "KEY-1"), newMovie(t, "Keyed by slug", "")
	upsert(t, s, &a, &b)

	for _, tt := range []struct {
		idCode, slug string
		want         int64
	}{
		{"KEY-1", "", a.ID},
		{"KEY-1", b.Slug, a.ID}, // id_code wins over slug, as in UpsertMovies
		{"", b.Slug, b.ID},
		{"", a.Slug, a.ID},
	} {
		got, err := s.MovieIDByKey(ctx, tt.idCode, tt.slug)
		if err != nil || got != tt.want {
			t.Errorf("MovieIDByKey(%q, %q): got %d, %v; want %d", tt.idCode, tt.slug, got, err, tt.want)
		}
	}
	for _, k := range [][2]string{{"KEY-2", ""}, {"", "no-such-slug"}, {"KEY-2", b.Slug}} {
		_, err := s.MovieIDByKey(ctx, k[0], k[1])
		wantCode(t, err, catalog.ENOTFOUND)
	}

	// UpdateMovie changes the stored row in place, keeps the time of
	// an unchanged movie, and never inserts.
	changed := getMovie(t, s, b.ID)
	changed.Name, changed.UpdatedAt = "Renamed", time.Time{}
	changed.Episodes = []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{{Name: "Ep 1", LinkM3U8: "https://cdn.example/1.m3u8"}}}}
	noErr(t, changed.Normalize(), "Normalize")
	noErr(t, s.UpdateMovie(ctx, &changed), "UpdateMovie")
	if got := getMovie(t, s, b.ID); !sameMovie(got, changed) || got.Name != "Renamed" {
		t.Errorf("UpdateMovie:\n got %+v\nwant %+v", got, changed)
	}
	again := changed
	again.UpdatedAt = time.Time{}
	noErr(t, s.UpdateMovie(ctx, &again), "UpdateMovie unchanged")
	if !again.UpdatedAt.Equal(changed.UpdatedAt) {
		t.Errorf("UpdateMovie of an unchanged movie: time %v, want the stored %v", again.UpdatedAt, changed.UpdatedAt)
	}
	count := countMovies(t, s)
	gone := changed
	gone.ID = b.ID + 1000
	wantCode(t, s.UpdateMovie(ctx, &gone), catalog.ENOTFOUND)
	if got := countMovies(t, s); got != count {
		t.Errorf("UpdateMovie of a missing movie: %d movies, want %d", got, count)
	}
	if ids, total := listMovies(t, s, catalog.MovieFilter{Terms: catalog.SearchTerms("renamed")}); total != 1 || ids[0] != b.ID {
		t.Errorf("search after UpdateMovie: got %v (total %d), want %d", ids, total, b.ID)
	}

	before := countMovies(t, s)
	noErr(t, s.DeleteMovie(ctx, a.ID), "DeleteMovie")
	_, err := s.GetMovie(ctx, a.ID)
	wantCode(t, err, catalog.ENOTFOUND)
	wantCode(t, s.DeleteMovie(ctx, a.ID), catalog.ENOTFOUND)
	if got := countMovies(t, s); got != before-1 {
		t.Errorf("CountMovies after a delete: got %d, want %d", got, before-1)
	}
	ids, total := listMovies(t, s, catalog.MovieFilter{Terms: catalog.SearchTerms("keyed")})
	if total != 0 || len(ids) != 0 {
		t.Errorf("search after a delete and a rename: got %v (total %d), want none", ids, total)
	}
}
