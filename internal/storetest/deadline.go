package storetest

import (
	"context"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runDeadline: work whose context is past its deadline or cancelled is
// EUNAVAILABLE on every engine (contract 2: a read past --read-timeout
// is a 503), never a foreign error that would become a 500.
func runDeadline(t *testing.T, open func(t *testing.T) catalog.Store) {
	s := open(t)
	bg := context.Background()
	c := catalog.Clip{Title: "Deadline clip", IframeURL: "https://dai.ly/x1"}
	noErr(t, s.CreateClip(bg, &c), "create clip")
	m := catalog.Movie{Name: "Deadline movie"}
	noErr(t, m.Normalize(), "normalize movie")
	noErr(t, s.UpsertMovies(bg, []catalog.Movie{m}), "upsert movie")

	expired, cancel := context.WithDeadline(bg, time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(bg)
	cancel2()
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Ping", s.Ping},
		{"DataVersion", func(ctx context.Context) error { _, err := s.DataVersion(ctx); return err }},
		{"ClipsByID", func(ctx context.Context) error { _, err := s.ClipsByID(ctx, []int64{c.ID}); return err }},
		{"GetClip", func(ctx context.Context) error { _, err := s.GetClip(ctx, c.ID); return err }},
		{"MoviesByID", func(ctx context.Context) error {
			_, err := s.MoviesByID(ctx, []int64{1}, catalog.AllFields(false))
			return err
		}},
		{"VodsByID", func(ctx context.Context) error { _, err := s.VodsByID(ctx, []int64{1}); return err }},
		{"SearchDocs", func(ctx context.Context) error {
			_, err := s.SearchDocs(ctx, catalog.SearchMovies, func(catalog.SearchDoc) {})
			return err
		}},
		{"CountMovies", func(ctx context.Context) error { _, err := s.CountMovies(ctx); return err }},
		{"EachMovie", func(ctx context.Context) error {
			return s.EachMovie(ctx, func(*catalog.Movie) error { return nil })
		}},
	}
	for _, tc := range calls {
		t.Run(tc.name+" past deadline", func(t *testing.T) {
			err := tc.call(expired)
			wantCode(t, err, catalog.EUNAVAILABLE)
			if got := catalog.ErrorMessage(err); got != "request timed out" {
				t.Errorf("message: got %q, want %q", got, "request timed out")
			}
		})
		t.Run(tc.name+" cancelled", func(t *testing.T) {
			wantCode(t, tc.call(cancelled), catalog.EUNAVAILABLE)
		})
	}
}
