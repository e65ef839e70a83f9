package collect_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/collect"
	"catalog/internal/testdb"
)

// A page that fails for a reason that passes (a 5xx or 429 answer, a
// cut connection, a timeout) is asked for again, Tries times in all;
// one that fails for a reason that stays (a 404, an answer too large,
// a broken document) is asked for once.
func TestRetries(t *testing.T) {
	t.Parallel()
	big := collect.Limits{ConnectTimeout: time.Second, PageTimeout: 300 * time.Millisecond, RetryWait: time.Millisecond, MaxPageBytes: 1000}
	for _, tt := range []struct {
		name   string
		fails  int // answers that fail before the good one
		answer func(w http.ResponseWriter, r *http.Request)
		limits collect.Limits
		asks   int
		want   string // the run's error; "" when it reads the page
	}{
		{"502 then good", 2, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) }, shortLimits, 3, ""},
		{"503 every time", 9, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }, shortLimits, 3,
			"page 1: answered 503 Service Unavailable (asked 3 times)"},
		{"429 then good", 1, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) }, shortLimits, 2, ""},
		{"cut body then good", 1, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "5000")
			fmt.Fprint(w, `{"code":1,"list":[`)
			panic(http.ErrAbortHandler)
		}, shortLimits, 2, ""},
		{"timeout then good", 1, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, shortLimits, 2, ""},
		{"404", 9, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }, shortLimits, 1, "page 1: answered 404 Not Found"},
		{"too large", 9, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, strings.Repeat(" ", 2000)) }, big, 1, "page 1: "},
		{"not JSON", 9, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html><title>Oops</title></html>") }, shortLimits, 1, "not the JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var asks atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if int(asks.Add(1)) <= tt.fails {
					tt.answer(w, r)
					return
				}
				fmt.Fprint(w, vodPage(1, 1, 1, 2))
			}))
			t.Cleanup(srv.Close)
			run, _, err := collect.Run(context.Background(), testdb.Open(t), collect.Options{Source: "s", URL: srv.URL + "/vod", Limits: tt.limits, Fetch: local})
			if got := int(asks.Load()); got != tt.asks {
				t.Errorf("asked %d times, want %d", got, tt.asks)
			}
			switch {
			case tt.want == "" && (err != nil || run.Written != 2):
				t.Errorf("got %+v, %v; want the page read and its 2 records written", run, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got error %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// Requests to one host go one at a time, at least the interval apart,
// also from two runs at once that share Hosts (serve's runner); every
// request names catalog and its version.
func TestPoliteToAHost(t *testing.T) {
	t.Parallel()
	const interval = 40 * time.Millisecond
	var mu sync.Mutex
	var inFlight, most int
	var ends []time.Time
	var starts []time.Time
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		starts = append(starts, time.Now())
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		time.Sleep(5 * time.Millisecond) // a request takes a while
		var pg int
		fmt.Sscan(r.URL.Query().Get("pg"), &pg)
		fmt.Fprint(w, vodPage(pg, 3, (pg-1)*2+1, 2))
		mu.Lock()
		inFlight--
		ends = append(ends, time.Now())
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	var hosts collect.Hosts
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := collect.Run(context.Background(), testdb.Open(t), collect.Options{Source: name, URL: srv.URL + "/vod",
				Limits: shortLimits, Fetch: local, Interval: interval, Hosts: &hosts, Version: "1.2.3"})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(starts) != 6 || most != 1 {
		t.Fatalf("got %d requests, at most %d at once; want 6, one at a time", len(starts), most)
	}
	for i := 1; i < len(starts); i++ {
		// The server's end is a little before the client's: allow 2 ms.
		if gap := starts[i].Sub(ends[i-1]); gap < interval-2*time.Millisecond {
			t.Errorf("request %d began %s after the one before ended, want at least %s", i+1, gap, interval)
		}
	}
	for _, ua := range agents {
		if !strings.HasPrefix(ua, "catalog/1.2.3 ") {
			t.Errorf("User-Agent %q, want catalog/1.2.3 ...", ua)
			break
		}
	}
}
