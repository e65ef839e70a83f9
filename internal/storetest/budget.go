package storetest

import (
	"context"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// RunListBudget checks the separate budgets of issue 11: with every list
// slot taken (fill), a list read waits and gives up with the request
// (a 503), while point reads and keyset seeks still get a connection at
// once. A store without the budget fails it: its list read succeeds.
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
	_, _, err := s.ListClips(short, catalog.ClipFilter{Paging: firstPage})
	wantCode(t, err, catalog.EUNAVAILABLE)
	_, _, err = s.ListMovies(short, catalog.MovieFilter{Paging: firstPage})
	wantCode(t, err, catalog.EUNAVAILABLE)

	point, cancel2 := context.WithTimeout(ctx, 5*time.Second)
	defer cancel2()
	got, err := s.GetClip(point, c.ID)
	noErr(t, err, "GetClip while the list budget is full")
	if got.Title != c.Title {
		t.Errorf("GetClip: got %q", got.Title)
	}
	if ks, ok := s.(catalog.KeysetStore); ok {
		clips, err := ks.ClipsFrom(point, "", c.ID, 0, 10)
		noErr(t, err, "ClipsFrom while the list budget is full")
		if len(clips) != 1 {
			t.Errorf("ClipsFrom: got %d clips, want 1", len(clips))
		}
	}
	release()
	released = true
	clips, total, err := s.ListClips(ctx, catalog.ClipFilter{Paging: firstPage})
	noErr(t, err, "ListClips after the budget is free")
	if total != 1 || len(clips) != 1 {
		t.Errorf("ListClips after the budget is free: total %d, %d clips", total, len(clips))
	}
}
