package movieapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"catalog/internal/snapshot"
	"catalog/internal/snapshot/snapshottest"
)

func TestSnapshotRoute(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	cfg := snapshot.Config{Store: store, Dir: t.TempDir(), Every: time.Hour}
	built := snapshottest.Watch(&cfg)
	snaps := snapshot.New(cfg)
	h := newService(t, store, snaps)

	t.Run("not ready", func(t *testing.T) {
		r := do(t, h, http.MethodGet, "/api/movies/snapshot")
		checkError(t, r, http.StatusServiceUnavailable, "snapshot not ready")
		if r.header.Get("Retry-After") == "" {
			t.Errorf("no Retry-After on the 503")
		}
		// Without a snapshot service (a misconfiguration) it is the same 503.
		r = do(t, newService(t, store, nil), http.MethodGet, "/api/movies/snapshot")
		checkError(t, r, http.StatusServiceUnavailable, "snapshot not ready")
	})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { snaps.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	snapshottest.WaitBuilt(t, built)

	// Contract 4.2: errors are {"code":0,"msg"}, a refused Range too.
	t.Run("range past the end", func(t *testing.T) {
		for _, enc := range []string{"", "gzip"} {
			r := do(t, h, http.MethodGet, "/api/movies/snapshot", "Range", "bytes=99999999-", "Accept-Encoding", enc)
			checkError(t, r, http.StatusRequestedRangeNotSatisfiable, "range not satisfiable")
			if !strings.HasPrefix(r.header.Get("Content-Range"), "bytes */") {
				t.Errorf("Accept-Encoding %q: Content-Range %q, want bytes */size", enc, r.header.Get("Content-Range"))
			}
		}
	})

	t.Run("ready", func(t *testing.T) {
		r := get(t, h, "/api/movies/snapshot", http.StatusOK)
		if !strings.HasPrefix(string(r.body), `{"code":1,"msg":"data list","page":1,"pagecount":1,"limit":"3","total":3,"list":[{"id":3,`) {
			t.Errorf("got %.120s", r.body)
		}
		checkHeader(t, r, "Access-Control-Allow-Origin", "*")
		checkHeader(t, r, "Content-Type", "application/json; charset=utf-8")
		if cc := r.header.Get("Cache-Control"); !strings.HasPrefix(cc, "public, max-age=") || strings.Contains(cc, "86400") {
			t.Errorf("got Cache-Control %q, want the snapshot's own max-age", cc)
		}
		nm := do(t, h, http.MethodGet, "/api/movies/snapshot", "If-None-Match", r.header.Get("ETag"))
		if nm.status != http.StatusNotModified {
			t.Errorf("If-None-Match: got %d, want 304", nm.status)
		}
		checkHeader(t, nm, "Access-Control-Allow-Origin", "*")
	})
}
