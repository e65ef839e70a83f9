package collect_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/testdb"
)

// serve's runner: a due source runs at start and reads everything; a
// requested run of the same source, after that whole run, reads only
// the source's hours.
func TestRunnerDueThenRequested(t *testing.T) {
	var mu sync.Mutex
	var hs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		q := r.URL.Query()
		hs = append(hs, q.Get("h"))
		if q.Get("ac") != "detail" || q.Get("pg") != "1" || q.Get("pagesize") != "100" {
			t.Errorf("query %q: want ac=detail, pg=1, pagesize=100", r.URL.RawQuery)
		}
		mu.Unlock()
		fmt.Fprint(w, vodPage(1, 1, 1, 3))
	}))
	defer srv.Close()
	st := testdb.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, err := catalog.NewSource("alpha", srv.URL+"/api.php/provide/vod/", time.Hour, 6)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	runs := make(chan catalog.SourceRun, 4)
	r := collect.NewRunner(collect.RunnerConfig{Store: st, Limits: shortLimits, Fetch: local, Observe: func(run catalog.SourceRun) { runs <- run }})
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	next := func() catalog.SourceRun {
		select {
		case run := <-runs:
			return run
		case <-time.After(30 * time.Second):
			t.Fatal("no run within 30 s")
		}
		return catalog.SourceRun{}
	}
	if run := next(); run.Err != "" || run.Written != 3 {
		t.Fatalf("due run: got %+v, want 3 written", run)
	}
	if !r.Request("alpha") {
		t.Fatal("Request refused with nothing running")
	}
	if run := next(); run.Err != "" || run.Written != 3 {
		t.Fatalf("requested run: got %+v, want 3 written", run)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(hs) != 2 || hs[0] != "" || hs[1] != "6" {
		t.Errorf("h of the two runs: got %q, want everything then h=6", hs)
	}
	if n, _ := st.CountMovies(context.Background()); n != 3 {
		t.Errorf("movies: got %d, want 3 (the second run updated them in place)", n)
	}
}
