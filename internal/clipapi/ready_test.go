package clipapi_test

import (
	"net/http"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
)

// While the clip index builds (contract 3.4): health says "building",
// ?ready is 503, and every list (search, platform, plain, deep) waits
// search.ReadyWait (under 1 s), then gets 503 in the clip error shape
// with Retry-After: none is answered by the database. Once the index is ready they are 200.
func TestListsWaitForTheIndex(t *testing.T) {
	e := newEnv(t)
	held := searchtest.Hold(e.store)
	live := search.NewLive(held, catalog.SearchClips, nil)
	live.Start(t.Context())
	e.handler = cli.ClipService(cli.ServiceDeps{Store: e.store, Version: "test-1", ClipSearch: live, MovieSearch: live})

	w := e.get("/api/health")
	if body := decode(t, w.Body.Bytes()); w.Code != http.StatusOK || body["search"] != "building" {
		t.Errorf("health while building: %d %v, want 200 with search building", w.Code, body)
	}
	if w := e.get("/api/health?ready"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("health?ready while building: %d %v, want 503 with Retry-After", w.Code, w.Header())
	}
	for _, target := range []string{"/api/clips", "/api/clips?q=a", "/api/clips?platform=JAV", "/api/clips?page=60"} {
		start := time.Now()
		w := e.get(target)
		if waited := time.Since(start); waited < search.ReadyWait {
			t.Errorf("GET %s while building: answered after %v, want a wait of %v", target, waited, search.ReadyWait)
		}
		if e := wantError(t, w, http.StatusServiceUnavailable); e.Error.Message != "the search index is building; retry shortly" {
			t.Errorf("GET %s while building: message %q", target, e.Error.Message)
		}
		if w.Header().Get("Retry-After") == "" {
			t.Errorf("GET %s while building: no Retry-After", target)
		}
	}

	held.Release()
	for live.WaitReady(t.Context()) != nil {
	}
	if w := e.get("/api/health?ready"); w.Code != http.StatusOK {
		t.Errorf("health?ready once ready: %d", w.Code)
	}
	if w := e.get("/api/clips?q=a"); w.Code != http.StatusOK {
		t.Errorf("search once ready: %d %s", w.Code, w.Body)
	}
}
