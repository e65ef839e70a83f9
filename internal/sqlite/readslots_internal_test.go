package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// Every read of the reader pool first takes a reader slot, so that
// database/sql never picks a waiter at random: with the pool's only
// slot held, each read waits and ends with its request's deadline (a
// 503), and once the slot is free it answers. A read that skipped the
// slot would find the idle connection and answer at once.
func TestReadsTakeAReaderSlot(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), Options{MaxReadConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	c := catalog.Clip{Title: "slot", IframeURL: "https://example.com/v/1", Platform: "JAV"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	movies := []catalog.Movie{{Name: "slot", Slug: "slot"}}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	m := movies[0]
	reads := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"GetClip", func(ctx context.Context) error { _, err := s.GetClip(ctx, c.ID); return err }},
		{"GetMovie", func(ctx context.Context) error { _, err := s.GetMovie(ctx, m.ID); return err }},
		{"ClipsByID", func(ctx context.Context) error { _, err := s.ClipsByID(ctx, []int64{c.ID}); return err }},
		{"MoviesByID", func(ctx context.Context) error {
			_, err := s.MoviesByID(ctx, []int64{m.ID}, catalog.AllFields(false))
			return err
		}},
		{"VodsByID", func(ctx context.Context) error { _, err := s.VodsByID(ctx, []int64{m.ID}); return err }},
		{"VodTypes", func(ctx context.Context) error { _, err := s.VodTypes(ctx); return err }},
		{"CountClips", func(ctx context.Context) error { _, err := s.CountClips(ctx); return err }},
		{"CountMovies", func(ctx context.Context) error { _, err := s.CountMovies(ctx); return err }},
		{"SearchChanges", func(ctx context.Context) error {
			_, err := s.SearchChanges(ctx, catalog.SearchClips, 0, 100)
			return err
		}},
		{"MovieIDByKey", func(ctx context.Context) error { _, err := s.MovieIDByKey(ctx, "", "slot"); return err }},
		{"ListAdmins", func(ctx context.Context) error { _, err := s.ListAdmins(ctx); return err }},
		{"ListTokens", func(ctx context.Context) error { _, err := s.ListTokens(ctx); return err }},
		{"ListSources", func(ctx context.Context) error { _, err := s.ListSources(ctx); return err }},
		{"AdminByUsername", func(ctx context.Context) error { _, err := s.AdminByUsername(ctx, "nobody"); return err }},
		{"SessionByTokenHash", func(ctx context.Context) error { _, err := s.SessionByTokenHash(ctx, "none"); return err }},
		{"SourceByName", func(ctx context.Context) error { _, err := s.SourceByName(ctx, "none"); return err }},
		{"TokenByHash", func(ctx context.Context) error { _, err := s.TokenByHash(ctx, "none"); return err }},
		{"ReserveLogin", func(ctx context.Context) error {
			return s.ReserveLogin(ctx, "someone", "192.0.2.1", time.Now())
		}},
	}
	for _, r := range reads {
		t.Run(r.name, func(t *testing.T) {
			if err := s.readSlots.Acquire(ctx, 1); err != nil {
				t.Fatal(err)
			}
			wctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			err := r.read(wctx)
			cancel()
			s.readSlots.Release(1)
			if catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
				t.Errorf("with the only slot held: %v (code %q), want EUNAVAILABLE", err, catalog.ErrorCode(err))
			}
			// ENOTFOUND is an answer too (the lookups by key find none).
			if err := r.read(ctx); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
				t.Errorf("with the slot free: %v", err)
			}
		})
	}
}
