package cache_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/demo"
	"catalog/internal/testdb"
)

// TestForStoreKeysOnKind checks, on a real store, that each service's
// reads key on its own kind's version: a clip write refills the clips'
// cached answers and leaves the movies' alone.
func TestForStoreKeysOnKind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := testdb.Open(t)
	clips := cache.ForStore(store, catalog.SearchClips)
	movies := cache.ForStore(store, catalog.SearchMovies)
	fills := map[*cache.Reads]int{}
	get := func(r *cache.Reads) {
		t.Helper()
		w := httptest.NewRecorder()
		if err := r.Serve(w, httptest.NewRequest("GET", "/", nil), "k", "", func(context.Context, int64) ([]byte, error) {
			fills[r]++
			return []byte(`{}`), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	get(clips)
	get(movies)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	if err := demo.SeedClips(ctx, store, g, 1); err != nil {
		t.Fatal(err)
	}
	get(clips)
	get(movies)
	if fills[clips] != 2 || fills[movies] != 1 {
		t.Errorf("after a clip write: clips filled %d times, movies %d; want 2 and 1", fills[clips], fills[movies])
	}
}

// TestReadsServe checks that a keyed read is filled once and then served
// from the cache, that key "" fills every time, and that a failed fill
// writes nothing (the service's error writer answers).
func TestReadsServe(t *testing.T) {
	t.Parallel()
	r := cache.ForStore(fixedVersion(1), catalog.SearchMovies)
	fills := 0
	fill := func(context.Context, int64) ([]byte, error) {
		fills++
		return []byte(`{"n":1}`), nil
	}
	serve := func(key string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		if err := r.Serve(w, httptest.NewRequest("GET", "/", nil), key, "", fill); err != nil {
			t.Fatal(err)
		}
		if w.Code != http.StatusOK || w.Body.String() != `{"n":1}` {
			t.Fatalf("key %q: got %d %s", key, w.Code, w.Body)
		}
		return w
	}
	serve("a")
	serve("a")
	if fills != 1 {
		t.Errorf("keyed: %d fills, want 1", fills)
	}
	serve("")
	serve("")
	if fills != 3 {
		t.Errorf("uncached: %d fills in all, want 3", fills)
	}
	w := httptest.NewRecorder()
	if err := r.Serve(w, httptest.NewRequest("GET", "/", nil), "x", "text/xml; charset=utf-8", fill); err != nil {
		t.Fatal(err)
	}
	if got := w.Header().Get("Content-Type"); got != "text/xml; charset=utf-8" {
		t.Errorf("Content-Type: got %q, want the one given", got)
	}
	w = httptest.NewRecorder()
	err := r.Serve(w, httptest.NewRequest("GET", "/", nil), "b", "", func(context.Context, int64) ([]byte, error) {
		return nil, catalog.Errorf(catalog.ENOTFOUND, "gone")
	})
	if catalog.ErrorCode(err) != catalog.ENOTFOUND || w.Body.Len() != 0 {
		t.Errorf("failed fill: got %v and %q written, want the error and nothing", err, w.Body)
	}
}

// fixedVersion is a store whose data never changes.
type fixedVersion int64

func (v fixedVersion) KindVersion(context.Context, catalog.SearchKind) (int64, error) {
	return int64(v), nil
}
