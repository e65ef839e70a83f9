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
	if run := next(); run.Err != "" || run.Written != 0 || run.Unchanged != 3 {
		t.Fatalf("requested run: got %+v, want the 3 records unchanged", run)
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

// Finding 7 of issue 35: a slow source holds one run slot, never the
// others; at most MaxRunsAtOnce sources run at once and a source one run
// at a time; an administrator cancels a run, and a run stops at its
// deadline, each recorded with its reason.
func TestRunnerSlowSourceHoldsNoOther(t *testing.T) {
	started := make(chan string, 8)
	slow := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			started <- name
			<-r.Context().Done() // a source that never answers
		}
	}
	fast := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, vodPage(1, 1, 1, 3)) })
	st := testdb.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	add := func(name string, h http.Handler, every time.Duration) {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		src, err := catalog.NewSource(name, srv.URL+"/vod", every, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddSource(ctx, &src); err != nil {
			t.Fatal(err)
		}
	}
	add("a-slow", slow("a-slow"), time.Hour)
	add("b-slow", slow("b-slow"), 0)
	add("c-fast", fast, 0)
	add("d-late", slow("d-late"), 0)
	runs := make(chan catalog.SourceRun, 8)
	r := collect.NewRunner(collect.RunnerConfig{Store: st, Fetch: local, RunDeadline: time.Minute,
		Limits:  collect.Limits{PageTimeout: time.Hour},
		Observe: func(run catalog.SourceRun) { runs <- run }})
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	next := func() catalog.SourceRun {
		t.Helper()
		select {
		case run := <-runs:
			return run
		case <-time.After(30 * time.Second):
			t.Fatal("no run ended within 30 s")
		}
		return catalog.SourceRun{}
	}
	wantStarted := func(want string) {
		t.Helper()
		select {
		case got := <-started:
			if got != want {
				t.Fatalf("started %s, want %s", got, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not start within 30 s", want)
		}
	}
	wantStarted("a-slow") // due at start
	if r.Request("a-slow") {
		t.Error("a second run of a running source was accepted")
	}
	// The slow source holds one slot; a fast one runs beside it.
	if !r.Request("c-fast") {
		t.Fatal("Request c-fast refused")
	}
	if run := next(); run.Source != "c-fast" || run.Err != "" || run.Written != 3 {
		t.Fatalf("fast run beside the slow one: got %+v", run)
	}
	// Two slow sources take both slots: a third waits for one.
	for _, name := range []string{"b-slow", "d-late"} {
		if !r.Request(name) {
			t.Fatalf("Request %s refused", name)
		}
	}
	wantStarted("b-slow")
	if got := r.Running(); len(got) != collect.MaxRunsAtOnce {
		t.Fatalf("running: got %d runs, want %d", len(got), collect.MaxRunsAtOnce)
	}
	if got := r.Waiting(); len(got) != 1 || got[0] != "d-late" {
		t.Fatalf("waiting: got %q, want d-late", got)
	}
	// Cancelling a run frees its slot for the one waiting.
	if !r.Cancel("a-slow") {
		t.Fatal("Cancel a-slow: nothing to cancel")
	}
	if run := next(); run.Source != "a-slow" || run.Err != "stopped after 0 pages: cancelled by an administrator" {
		t.Fatalf("cancelled run: got %+v", run)
	}
	wantStarted("d-late")
	if src, _ := st.SourceByName(ctx, "a-slow"); src.LastRun.Err != "stopped after 0 pages: cancelled by an administrator" {
		t.Errorf("recorded: %q", src.LastRun.Err)
	}
	if r.Cancel("c-fast") {
		t.Error("Cancel of a source that neither runs nor waits said yes")
	}
	cancel()
	<-done
}

func TestRunnerDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("pg") == "1" {
			fmt.Fprint(w, vodPage(1, 3, 1, 2))
			return
		}
		<-r.Context().Done()
	}))
	defer srv.Close()
	st := testdb.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, _ := catalog.NewSource("slow", srv.URL+"/vod", time.Hour, 0)
	if err := st.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	runs := make(chan catalog.SourceRun, 1)
	r := collect.NewRunner(collect.RunnerConfig{Store: st, Fetch: local, RunDeadline: 500 * time.Millisecond,
		Limits: collect.Limits{PageTimeout: time.Hour}, Observe: func(run catalog.SourceRun) { runs <- run }})
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	select {
	case run := <-runs:
		want := "stopped after 1 pages: the run passed its deadline of 500ms (--collect-deadline)"
		if run.Err != want || run.Written != 2 {
			t.Errorf("got %+v, want %q with page 1 written", run, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not stop at its deadline")
	}
	cancel()
	<-done
}

// Every due source runs, one after another: with more due sources than
// run slots, one that found no slot starts as soon as a slot comes free,
// not at the next check (an hour away here).
func TestRunnerDueSourcesRunInTurn(t *testing.T) {
	st := testdb.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan string, 8)
	names := []string{"a", "b", "c"}
	for _, name := range names {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			started <- name
			<-r.Context().Done() // slow: its run ends when cancelled
		}))
		t.Cleanup(srv.Close)
		src, err := catalog.NewSource(name, srv.URL+"/vod", time.Hour, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddSource(ctx, &src); err != nil {
			t.Fatal(err)
		}
	}
	r := collect.NewRunner(collect.RunnerConfig{Store: st, Fetch: local, CheckEvery: time.Hour, Limits: collect.Limits{PageTimeout: time.Hour}})
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	next := func() string {
		t.Helper()
		select {
		case name := <-started:
			return name
		case <-time.After(30 * time.Second):
			t.Fatalf("no run started within 30 s; running %v", r.Running())
		}
		return ""
	}
	if a, b := next(), next(); a+b != "ab" && a+b != "ba" {
		t.Fatalf("first runs: %s and %s, want a and b (both slots)", a, b)
	}
	if !r.Cancel("a") {
		t.Fatal("Cancel a: not running")
	}
	if got := next(); got != "c" {
		t.Fatalf("after a's slot came free: %s started, want c", got)
	}
	cancel()
	<-done
}
