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
	t.Run("ceiling", func(t *testing.T) { runIDCeiling(t, open) })
}

// runIDCeiling: the id ceiling cannot lock a catalog. New records are
// numbered after the highest id ever used while that stays within
// 2^32-1; a write that would pass it is numbered after the highest id
// present instead, so once the record at the top is deleted, every kind
// of write gets ids again. The limit itself stays.
func runIDCeiling(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	const top = catalog.MaxID
	clipPaths := []struct {
		name string
		add  func(s catalog.Store) ([]int64, error) // the ids it assigned
	}{
		{"CreateClip", func(s catalog.Store) ([]int64, error) {
			c := newClip("created", "")
			err := s.CreateClip(ctx, &c)
			return []int64{c.ID}, err
		}},
		{"ImportClips one", func(s catalog.Store) ([]int64, error) {
			c := []catalog.Clip{newClip("imported", "")}
			err := s.ImportClips(ctx, c)
			return []int64{c[0].ID}, err
		}},
		{"ImportClips two", func(s catalog.Store) ([]int64, error) {
			c := []catalog.Clip{newClip("one", ""), newClip("two", "")}
			err := s.ImportClips(ctx, c)
			return []int64{c[0].ID, c[1].ID}, err
		}},
	}
	moviePaths := []struct {
		name string
		add  func(s catalog.Store, n int) ([]int64, error)
	}{
		{"UpsertMovies by slug", func(s catalog.Store, n int) ([]int64, error) {
			m := []catalog.Movie{{Name: "By slug " + strconv.Itoa(n), Slug: "by-slug-" + strconv.Itoa(n)}}
			err := s.UpsertMovies(ctx, m)
			return []int64{m[0].ID}, err
		}},
		{"UpsertMovies by code", func(s catalog.Store, n int) ([]int64, error) {
			m := []catalog.Movie{{Name: "By code", Slug: "by-code", IDCode: "CODE-" + strconv.Itoa(n)}}
			err := s.UpsertMovies(ctx, m)
			return []int64{m[0].ID}, err
		}},
		{"UpsertMovies bulk", func(s catalog.Store, n int) ([]int64, error) {
			m := []catalog.Movie{{Name: "Bulk", Slug: "bulk", IDCode: "BULK-A" + strconv.Itoa(n)}, {Name: "Bulk", Slug: "bulk", IDCode: "BULK-B" + strconv.Itoa(n)}}
			err := s.UpsertMovies(ctx, m)
			return []int64{m[0].ID, m[1].ID}, err
		}},
		{"CollectMovies", func(s catalog.Store, n int) ([]int64, error) {
			m := catalog.Movie{Name: "Collected " + strconv.Itoa(n), Year: "2001"}
			if err := m.Normalize(); err != nil {
				return nil, err
			}
			page := []catalog.CollectedMovie{{VodID: int64(n), Movie: m}}
			err := s.CollectMovies(ctx, "peer", page)
			return []int64{page[0].Movie.ID}, err
		}},
	}

	s := open(t)
	// A catalog of ids 1 to 3, then one record imported at the top.
	for i := 1; i <= 3; i++ {
		c := newClip("clip "+strconv.Itoa(i), "")
		noErr(t, s.CreateClip(ctx, &c), "CreateClip")
	}
	noErr(t, s.ImportClips(ctx, []catalog.Clip{func() catalog.Clip { c := newClip("top", ""); c.ID = top; return c }()}), "ImportClips top")
	movies := []catalog.Movie{{Name: "One", Slug: "one"}, {Name: "Two", Slug: "two"}, {Name: "Three", Slug: "three"}, {ID: top, Name: "Top", Slug: "top"}}
	noErr(t, s.UpsertMovies(ctx, movies), "UpsertMovies")

	// At the top every new record is refused, by every path.
	for i, p := range clipPaths {
		_, err := p.add(s)
		wantCode(t, err, catalog.EUNAVAILABLE)
		if i == 0 {
			t.Logf("%s at the limit: %v", p.name, err)
		}
	}
	for i, p := range moviePaths {
		ids, err := p.add(s, i)
		if catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
			t.Fatalf("%s at the limit: got ids %v, error %v; want %q", p.name, ids, err, catalog.EUNAVAILABLE)
		}
	}

	// Once the top record is deleted, new records follow the highest id
	// present, and then number on as before.
	noErr(t, s.DeleteClip(ctx, top), "DeleteClip top")
	noErr(t, s.DeleteMovie(ctx, top), "DeleteMovie top")
	next := int64(4)
	for _, p := range clipPaths {
		ids, err := p.add(s)
		noErr(t, err, p.name+" after the top was deleted")
		for _, id := range ids {
			if id != next {
				t.Fatalf("%s after the top was deleted: got ids %v, want %d next", p.name, ids, next)
			}
			next++
		}
	}
	next = 4
	for i, p := range moviePaths {
		ids, err := p.add(s, 100+i)
		noErr(t, err, p.name+" after the top was deleted")
		for _, id := range ids {
			if id != next {
				t.Fatalf("%s after the top was deleted: got ids %v, want %d next", p.name, ids, next)
			}
			next++
		}
	}

	// Below the top, ids are not reused: deleting the last record does
	// not give its id again.
	noErr(t, s.DeleteClip(ctx, 7), "DeleteClip 7")
	c := newClip("after a delete", "")
	noErr(t, s.CreateClip(ctx, &c), "CreateClip after a delete")
	if c.ID != 8 {
		t.Errorf("CreateClip after deleting the last clip 7: got id %d, want 8", c.ID)
	}
	noErr(t, s.DeleteMovie(ctx, next-1), "DeleteMovie")
	m := []catalog.Movie{{Name: "After a delete", Slug: "after-a-delete"}}
	noErr(t, s.UpsertMovies(ctx, m), "UpsertMovies after a delete")
	if m[0].ID != next {
		t.Errorf("UpsertMovies after deleting the last movie %d: got id %d, want %d", next-1, m[0].ID, next)
	}

	// The limit stays: a record can sit at it again, and new ones are
	// refused again, until it goes.
	noErr(t, s.UpsertMovies(ctx, []catalog.Movie{{ID: top, Name: "Top again", Slug: "top-again"}}), "UpsertMovies top again")
	_, err := moviePaths[0].add(s, 999)
	wantCode(t, err, catalog.EUNAVAILABLE)
	err = s.UpsertMovies(ctx, []catalog.Movie{{ID: top + 1, Name: "Past", Slug: "past"}})
	wantCode(t, err, catalog.EINVALID)

	// A catalog emptied from the top starts again at 1.
	e := open(t)
	noErr(t, e.ImportClips(ctx, []catalog.Clip{func() catalog.Clip { c := newClip("top", ""); c.ID = top; return c }()}), "ImportClips top")
	noErr(t, e.DeleteClip(ctx, top), "DeleteClip top")
	first := newClip("first", "")
	noErr(t, e.CreateClip(ctx, &first), "CreateClip in an emptied catalog")
	if first.ID != 1 {
		t.Errorf("CreateClip in a catalog emptied from the top: got id %d, want 1", first.ID)
	}
}

func wantNamed(tb testing.TB, err error, id int64) {
	tb.Helper()
	msg := catalog.ErrorMessage(err)
	if want := strconv.FormatInt(id, 10); !strings.Contains(msg, want) {
		tb.Fatalf("message: got %q, want it to name the record %s", msg, want)
	}
}
