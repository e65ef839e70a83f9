package storetest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// runIDs holds ids to 2^32-1 (4294967295), the largest the search index
// holds: a larger imported one is refused naming the record, and nothing
// of it is stored, so later inserts still get ids; once a record sits at
// the limit, a write that would be given an id past it fails as a whole.
func runIDs(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	for _, id := range []int64{4294967296, 9223372036854775807} {
		t.Run("clip", func(t *testing.T) {
			s := open(t)
			c := newClip("too far", "")
			c.ID = id
			err := s.ImportClips(ctx, []catalog.Clip{c})
			wantCode(t, err, catalog.EINVALID)
			wantNamed(t, err, id)
			next := newClip("after", "")
			noErr(t, s.CreateClip(ctx, &next), "CreateClip after the refused id")
			if next.ID != 1 {
				t.Fatalf("id after a refused import: got %d, want 1", next.ID)
			}
		})
		t.Run("movie", func(t *testing.T) {
			s := open(t)
			err := s.UpsertMovies(ctx, []catalog.Movie{{ID: id, Name: "too far", Slug: "too-far"}})
			wantCode(t, err, catalog.EINVALID)
			wantNamed(t, err, id)
			next := []catalog.Movie{{Name: "after", Slug: "after"}}
			noErr(t, s.UpsertMovies(ctx, next), "UpsertMovies after the refused id")
			if next[0].ID != 1 {
				t.Fatalf("id after a refused import: got %d, want 1", next[0].ID)
			}
		})
	}
	t.Run("largest", func(t *testing.T) {
		s := open(t)
		c := newClip("at the limit", "")
		c.ID = 4294967295
		noErr(t, s.ImportClips(ctx, []catalog.Clip{c}), "ImportClips at 2^32-1")
		m := []catalog.Movie{{ID: 4294967295, Name: "at the limit", Slug: "at-the-limit"}}
		noErr(t, s.UpsertMovies(ctx, m), "UpsertMovies at 2^32-1")

		// The ids are used up: a new record fails as a whole, with a
		// reason, and nothing past the limit is stored.
		next := newClip("past the limit", "")
		wantCode(t, s.CreateClip(ctx, &next), catalog.EUNAVAILABLE)
		two := []catalog.Clip{newClip("one", ""), newClip("two", "")}
		wantCode(t, s.ImportClips(ctx, two), catalog.EUNAVAILABLE)
		wantCode(t, s.UpsertMovies(ctx, []catalog.Movie{{Name: "past the limit", Slug: "past-the-limit"}}), catalog.EUNAVAILABLE)
		if total, err := s.CountClips(ctx); err != nil || total != 1 {
			t.Fatalf("clips after the refused writes: got %d (%v), want only the one at the limit", total, err)
		}
		if n, err := s.CountMovies(ctx); err != nil || n != 1 {
			t.Fatalf("movies after the refused write: got %d (%v), want only the one at the limit", n, err)
		}
	})
}

func wantNamed(tb testing.TB, err error, id int64) {
	tb.Helper()
	msg := catalog.ErrorMessage(err)
	if want := strconv.FormatInt(id, 10); !strings.Contains(msg, want) {
		tb.Fatalf("message: got %q, want it to name the record %s", msg, want)
	}
}
