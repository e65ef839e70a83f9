package edge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/edge"
	"catalog/internal/testdb"
)

// receiver is a purge endpoint that records what reaches it.
type receiver struct {
	mu       sync.Mutex
	requests []*http.Request
	answer   func(n int) int // status of the n-th request (1-based)
	hold     chan struct{}   // when set, every request waits for it
}

func newReceiver(t *testing.T, answer func(int) int) (*receiver, *httptest.Server) {
	r := &receiver{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.hold != nil {
			<-r.hold
		}
		r.mu.Lock()
		r.requests = append(r.requests, req)
		n := len(r.requests)
		r.mu.Unlock()
		status := http.StatusOK
		if r.answer != nil {
			status = r.answer(n)
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.requests)
}

// done collects the purger's reports.
type done struct {
	keys []string
	err  error
}

func newPurger(t *testing.T, url string) (*edge.Purger, chan done) {
	reports := make(chan done, 64)
	p := edge.NewPurger(edge.PurgerConfig{URL: url, RetryWait: time.Millisecond,
		Done: func(keys []string, err error) { reports <- done{keys, err} }})
	t.Cleanup(func() { p.Close(context.Background()) })
	return p, reports
}

func wait(t *testing.T, reports chan done) done {
	t.Helper()
	select {
	case d := <-reports:
		return d
	case <-time.After(30 * time.Second):
		t.Fatal("no purge report within 30 s")
		return done{}
	}
}

func TestPurgeRequestShape(t *testing.T) {
	rec, srv := newReceiver(t, nil)
	p, reports := newPurger(t, srv.URL+"/")
	p.Announce("movies", "movie-7", "movie-7")
	if d := wait(t, reports); d.err != nil || strings.Join(d.keys, " ") != "movies movie-7" {
		t.Fatalf("report: got %v %v, want movies movie-7 sent", d.keys, d.err)
	}
	req := rec.requests[0]
	if req.Method != "PURGE" || req.Header.Get("xkey-purge") != "movies movie-7" || req.Header.Get("Surrogate-Key") != "movies movie-7" {
		t.Errorf("request: got %s xkey-purge %q Surrogate-Key %q, want PURGE with the keys in both headers",
			req.Method, req.Header.Get("xkey-purge"), req.Header.Get("Surrogate-Key"))
	}
}

func TestPurgeRetries(t *testing.T) {
	for _, c := range []struct {
		name     string
		answer   func(n int) int
		requests int
		ok       bool
	}{
		{"5xx then success", func(n int) int { return map[bool]int{true: 503, false: 200}[n <= 2] }, 3, true},
		{"429 is retried", func(n int) int { return map[bool]int{true: 429, false: 204}[n == 1] }, 2, true},
		{"a 404 is not retried", func(int) int { return 404 }, 1, false},
		{"given up after 8 attempts", func(int) int { return 500 }, 8, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, srv := newReceiver(t, c.answer)
			p, reports := newPurger(t, srv.URL)
			p.Announce("clips")
			d := wait(t, reports)
			if (d.err == nil) != c.ok || rec.count() != c.requests {
				t.Errorf("got err %v after %d requests, want ok=%v after %d", d.err, rec.count(), c.ok, c.requests)
			}
		})
	}
	t.Run("network error is retried", func(t *testing.T) {
		_, srv := newReceiver(t, nil)
		url := srv.URL
		srv.Close()
		p, reports := newPurger(t, url)
		p.Announce("clips")
		if d := wait(t, reports); d.err == nil {
			t.Errorf("purge to a closed port: got success")
		}
	})
}

// A purge endpoint that hangs must never hold up the writes: Announce
// returns at once, a full queue drops announcements but keeps their
// collection keys, and Close gives up when its context ends.
func TestAnnounceNeverBlocks(t *testing.T) {
	rec, srv := newReceiver(t, nil)
	rec.hold = make(chan struct{})
	p, reports := newPurger(t, srv.URL)
	start := time.Now()
	for i := range 1024 + 100 {
		p.Announce("movie-" + string(rune('a'+i%26)))
	}
	p.Announce("movies", "movie-1") // dropped: only "movies" is kept
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("1,125 announcements to a hanging endpoint took %s", d)
	}
	close(rec.hold)
	sawMovies := false
	for !sawMovies {
		d := wait(t, reports)
		for _, k := range d.keys {
			sawMovies = sawMovies || k == "movies"
		}
	}

	// Close with a context that ends gives up instead of waiting.
	rec2, srv2 := newReceiver(t, nil)
	rec2.hold = make(chan struct{})
	defer close(rec2.hold)
	p2 := edge.NewPurger(edge.PurgerConfig{URL: srv2.URL})
	p2.Announce("clips")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	p2.Close(ctx)
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Close waited %s for a hanging endpoint", d)
	}
}

func TestNilPurgerAndStore(t *testing.T) {
	var p *edge.Purger
	p.Announce("movies") // must not panic
	p.Close(context.Background())
	st := testdb.Open(t)
	if edge.Announcing(st, nil) != st {
		t.Errorf("Announcing without a purger: want the store itself")
	}
}

// Every committed write announces once, with its keys; a failed write
// announces nothing; big batches name only the collection.
func TestAnnouncingStore(t *testing.T) {
	ctx := context.Background()
	var sent atomic.Int32
	_, srv := newReceiver(t, func(int) int { sent.Add(1); return 200 })
	p, reports := newPurger(t, srv.URL)
	st := edge.Announcing(testdb.Open(t), p)
	clip := catalog.Clip{Title: "A", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
	movies := func(n int) []catalog.Movie {
		var out []catalog.Movie
		for i := range n {
			m := catalog.Movie{Name: "Movie", IDCode: "ABC-" + string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))}
			m.Slug = strings.ToLower(m.IDCode)
			out = append(out, m)
		}
		return out
	}
	three, hundred := movies(3), movies(100)
	for i := range hundred {
		hundred[i].IDCode += "x"
		hundred[i].Slug += "x"
	}
	for _, c := range []struct {
		name  string
		write func() error
		want  string // "" = an error and no announcement; "-": no announcement
	}{
		{"create clip", func() error { return st.CreateClip(ctx, &clip) }, "clips clip-1"},
		{"update clip", func() error {
			_, err := st.UpdateClip(ctx, 1, func(c *catalog.Clip) error { c.Title = "B"; return nil })
			return err
		}, "clips clip-1"},
		{"update missing clip", func() error {
			_, err := st.UpdateClip(ctx, 99, func(c *catalog.Clip) error { return nil })
			return err
		}, ""},
		{"delete clip", func() error { return st.DeleteClip(ctx, 1) }, "clips clip-1"},
		{"delete missing clip", func() error { return st.DeleteClip(ctx, 1) }, ""},
		{"import clips", func() error {
			return st.ImportClips(ctx, []catalog.Clip{{ID: 5, Title: "C", IframeURL: clip.IframeURL}})
		}, "clips clip-5"},
		{"movies batch", func() error { return st.UpsertMovies(ctx, three) }, "movies movie-1 movie-2 movie-3"},
		{"big movies batch", func() error { return st.UpsertMovies(ctx, hundred) }, "movies"},
		{"update movie", func() error {
			m := three[0]
			m.Synopsis = "changed"
			return st.UpdateMovie(ctx, &m)
		}, "movies movie-1"},
		{"update missing movie", func() error {
			m := three[0]
			m.ID = 9999
			return st.UpdateMovie(ctx, &m)
		}, ""},
		{"delete movie", func() error { return st.DeleteMovie(ctx, 2) }, "movies movie-2"},
		{"delete missing movie", func() error { return st.DeleteMovie(ctx, 2) }, ""},
		{"collected page", func() error {
			return st.CollectMovies(ctx, "src", []catalog.CollectedMovie{{VodID: 7, Movie: catalog.Movie{Name: "Collected", Slug: "collected"}, Hash: "h7"}})
		}, "movies movie-104"},
		// Contract 10: a record that did not change is no write and no
		// purge (the next case would hear of it if it were).
		{"unchanged collected page", func() error {
			return st.CollectMovies(ctx, "src", []catalog.CollectedMovie{{VodID: 7, Movie: catalog.Movie{Name: "Collected", Slug: "collected"}, Hash: "h7"}})
		}, "-"},
		{"collected page after it", func() error {
			return st.CollectMovies(ctx, "src", []catalog.CollectedMovie{{VodID: 8, Movie: catalog.Movie{Name: "Other", Slug: "other"}, Hash: "h8"}})
		}, "movies movie-105"},
	} {
		before := sent.Load()
		err := c.write()
		if c.want == "-" {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			continue
		}
		if c.want == "" {
			if err == nil {
				t.Fatalf("%s: want an error", c.name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := wait(t, reports)
		if got := strings.Join(d.keys, " "); got != c.want || sent.Load() != before+1 {
			t.Errorf("%s: purged %q in %d requests, want %q in 1", c.name, got, sent.Load()-before, c.want)
		}
	}
	select {
	case d := <-reports:
		t.Errorf("a failed write announced %v", d.keys)
	default:
	}
}
