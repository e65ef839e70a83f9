package storetest

import (
	"context"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// RunListBudget checks the separate budgets of list reads: with every list
// slot taken (fill), a heavy list read (a search the database answers,
// a deep OFFSET page) waits and gives up with the request (a 503), while
// light lists (a kept count and a shallow page, budget.Light), point
// reads and keyset seeks still get a connection at once. A store
// without the budget fails it (its heavy reads succeed), and so does
// one whose light lists wait for a list slot.
func RunListBudget(t *testing.T, s catalog.Store, fill func() (release func())) {
	ctx := context.Background()
	c := catalog.Clip{Title: "Budgeted", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
	noErr(t, s.CreateClip(ctx, &c), "CreateClip")
	release := fill()
	released := false
	defer func() {
		if !released {
			release()
		}
	}()

	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	deep := catalog.Paging{Page: catalog.DeepOffset/20 + 1, Limit: 20}
	for _, tc := range []struct {
		name string
		read func() error
	}{
		{"ListClips search", func() error {
			_, _, err := s.ListClips(short, catalog.ClipFilter{Terms: catalog.SearchTerms("budgeted"), Paging: firstPage})
			return err
		}},
		{"ListClips deep page", func() error { _, _, err := s.ListClips(short, catalog.ClipFilter{Paging: deep}); return err }},
		{"ListMovies search", func() error {
			_, _, err := s.ListMovies(short, catalog.MovieFilter{Terms: catalog.SearchTerms("budgeted"), Paging: firstPage})
			return err
		}},
		{"ListMovies deep page", func() error { _, _, err := s.ListMovies(short, catalog.MovieFilter{Paging: deep}); return err }},
		{"ListVods filtered", func() error {
			_, _, err := s.ListVods(short, catalog.VodFilter{TypeID: 1, Paging: firstPage})
			return err
		}},
	} {
		if err := tc.read(); catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
			t.Errorf("%s with the list budget full: got %v, want EUNAVAILABLE", tc.name, err)
		}
	}

	point, cancel2 := context.WithTimeout(ctx, 5*time.Second)
	defer cancel2()
	for _, tc := range []struct {
		name string
		read func() error
	}{
		{"ListClips", func() error { _, _, err := s.ListClips(point, catalog.ClipFilter{Paging: firstPage}); return err }},
		{"ListClips of a platform", func() error {
			_, _, err := s.ListClips(point, catalog.ClipFilter{Platform: "JAV", Paging: firstPage})
			return err
		}},
		{"ListMovies", func() error { _, _, err := s.ListMovies(point, catalog.MovieFilter{Paging: firstPage}); return err }},
		{"ListVods", func() error { _, _, err := s.ListVods(point, catalog.VodFilter{Paging: firstPage}); return err }},
	} {
		noErr(t, tc.read(), tc.name+" (light) while the list budget is full")
	}
	got, err := s.GetClip(point, c.ID)
	noErr(t, err, "GetClip while the list budget is full")
	if got.Title != c.Title {
		t.Errorf("GetClip: got %q", got.Title)
	}
	// The keyed reads of the pages the index answers never wait for it.
	clips, err := s.ClipsByID(point, []int64{c.ID})
	noErr(t, err, "ClipsByID while the list budget is full")
	if len(clips) != 1 {
		t.Errorf("ClipsByID: got %d clips, want 1", len(clips))
	}
	release()
	released = true
	clips, total, err := s.ListClips(ctx, catalog.ClipFilter{Paging: firstPage})
	noErr(t, err, "ListClips after the budget is free")
	if total != 1 || len(clips) != 1 {
		t.Errorf("ListClips after the budget is free: total %d, %d clips", total, len(clips))
	}
}
