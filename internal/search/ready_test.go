package search_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// A search waits at most one second for an index that is building, then
// fails with ErrBuilding (a 503 the client retries); Ready and health
// see "building" meanwhile. Nothing else answers it.
func TestSearchWaitsOneSecondForTheIndex(t *testing.T) {
	store := testdb.Open(t)
	synctest.Test(t, func(t *testing.T) {
		held := searchtest.Hold(store) // its channel in the bubble: waiting on it lets time move
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		live := search.NewLive(held, catalog.SearchClips, nil)
		live.Start(ctx)
		start := time.Now()
		_, err := live.Find(ctx, 0, search.Query{Terms: []string{"a"}, Limit: 20})
		if err != search.ErrBuilding {
			t.Fatalf("search while building: got %v, want ErrBuilding", err)
		}
		if waited := time.Since(start); waited != search.ReadyWait || waited >= time.Second {
			t.Errorf("search while building waited %v, want ReadyWait (%v), under the 1 s a request may take", waited, search.ReadyWait)
		}
		if catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
			t.Errorf("ErrBuilding's code: got %q, want %q", catalog.ErrorCode(err), catalog.EUNAVAILABLE)
		}
		if live.Ready() {
			t.Error("Ready while the build is held: got true")
		}
	})
}

// A search that arrives while the index builds is answered as soon as
// the index is ready, within the second it may wait.
func TestSearchAnsweredWhenTheIndexBecomesReady(t *testing.T) {
	store := testdb.Open(t)
	c := catalog.Clip{Title: "Ready river", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
	if err := store.CreateClip(t.Context(), &c); err != nil {
		t.Fatal(err)
	}
	held := searchtest.Hold(store)
	live := search.NewLive(held, catalog.SearchClips, nil)
	live.Start(t.Context())
	done := make(chan error, 1)
	var got search.Result
	go func() {
		var err error
		got, err = live.Find(t.Context(), 0, search.Query{Terms: []string{"river"}, Limit: 20})
		done <- err
	}()
	held.Release()
	if err := <-done; err != nil {
		t.Fatalf("search during the build: %v, want the index's answer", err)
	}
	if got.Total != 1 || len(got.IDs) != 1 || got.IDs[0] != c.ID {
		t.Errorf("search during the build: got %+v, want [%d]", got, c.ID)
	}
}

// An index is started only by its owner (cli's serve, a test): a search
// of one nobody started waits ReadyWait and fails with ErrBuilding; it
// never starts a build of its own. The source is nil, so a build would
// panic.
func TestUnstartedIndexNeverBuilds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := search.NewLive(nil, catalog.SearchMovies, nil)
		if _, err := l.Find(t.Context(), 1, search.Query{Limit: 10}); err != search.ErrBuilding {
			t.Fatalf("Find on an unstarted index: %v, want ErrBuilding", err)
		}
		synctest.Wait()
		if l.Ready() {
			t.Error("an unstarted index became ready")
		}
	})
}
