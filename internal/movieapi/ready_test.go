package movieapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
)

// While the movie index builds (contract 3.4): health says "building",
// ?ready is 503, and every list waits search.ReadyWait (under 1 s),
// then gets 503 in the movie error shape with Retry-After: none is
// answered by the database.
// Details need no index and are answered at once. Once the index is
// ready, everything is 200.
func TestListsWaitForTheIndex(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	held := searchtest.Hold(store)
	live := search.NewLive(held, catalog.SearchMovies, nil)
	live.Start(t.Context())
	h := cli.MovieService(cli.ServiceDeps{Store: store, Version: "test", Logger: testLogger(t), MovieSearch: live})

	if got := decodeHealth(t, get(t, h, "/api/health", http.StatusOK).body); got.Status != "ok" || got.Search != "building" {
		t.Errorf("health while building: got %+v, want status ok, search building", got)
	}
	if r := get(t, h, "/api/health?ready", http.StatusServiceUnavailable); r.header.Get("Retry-After") == "" {
		t.Error("health?ready while building: no Retry-After")
	}
	for _, target := range []string{"/api/movies", "/api/movies?q=movie", "/api/movies?page=2&limit=1", "/api/jav?wd=1"} {
		start := time.Now()
		r := get(t, h, target, http.StatusServiceUnavailable)
		if waited := time.Since(start); waited < search.ReadyWait {
			t.Errorf("GET %s while building: answered after %v, want a wait of %v", target, waited, search.ReadyWait)
		}
		checkError(t, r, http.StatusServiceUnavailable, "the search index is building; retry shortly")
		if r.header.Get("Retry-After") == "" {
			t.Errorf("GET %s while building: no Retry-After", target)
		}
	}
	get(t, h, "/api/movies/1", http.StatusOK)

	held.Release()
	for live.WaitReady(t.Context()) != nil {
	}
	get(t, h, "/api/health?ready", http.StatusOK)
	var l struct {
		Total int64 `json:"total"`
	}
	if err := json.Unmarshal(get(t, h, "/api/movies?q=movie", http.StatusOK).body, &l); err != nil || l.Total != 3 {
		t.Errorf("search once ready: total %d, want 3", l.Total)
	}
}
