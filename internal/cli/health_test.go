package cli_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"catalog/internal/testdb"
)

// TestHealthCommand: catalog health succeeds against a running serve
// and fails, exit status 1, when either service is down or unhealthy.
func TestHealthCommand(t *testing.T) {
	t.Parallel()
	srv := startServe(t, map[string]string{"CATALOG_DB": testdb.New(t).DSN()}, serveArgs()...)
	clips, movies := srv.addrs.Clips.String(), srv.addrs.Movies.String()
	_, moviesPort, _ := net.SplitHostPort(movies)

	// Closed: a listener that hangs up on every connection without a
	// word. It stays bound for the whole test, so no other test's server
	// can take its port (a listener that was bound and let go could be
	// reused by a parallel test, which then answers).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	closed := ln.Addr().String()
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"status":"unavailable"}`, http.StatusServiceUnavailable)
	}))
	defer unavailable.Close()

	tests := []struct {
		name       string
		env        map[string]string
		args       []string
		exit       int
		wantStdout []string
	}{
		{"both answer, addresses from the environment", map[string]string{"CATALOG_CLIPS_ADDR": clips, "CATALOG_MOVIES_ADDR": movies}, nil, 0,
			[]string{"clips http://" + clips + "/api/health: 200 OK", "movies http://" + movies + "/api/health: 200 OK"}},
		{"an unspecified host is this machine", nil, []string{"--clips-addr", clips, "--movies-addr", "0.0.0.0:" + moviesPort}, 0,
			[]string{"movies http://127.0.0.1:" + moviesPort + "/api/health: 200 OK"}},
		{"the movie service is down", nil, []string{"--clips-addr", clips, "--movies-addr", closed}, 1,
			[]string{"clips http://" + clips + "/api/health: 200 OK", "movies http://" + closed + "/api/health: no answer"}},
		{"the clip service answers 503", nil, []string{"--clips-addr", unavailable.Listener.Addr().String(), "--movies-addr", movies}, 1,
			[]string{"/api/health: 503 Service Unavailable"}},
		{"a bad address", nil, []string{"--clips-addr", "nowhere", "--movies-addr", movies}, 2, nil},
		{"a random port cannot be probed", nil, []string{"--clips-addr", "127.0.0.1:0", "--movies-addr", movies}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.env, "", append([]string{"health"}, tt.args...)...)
			wantExit(t, r, tt.exit)
			for _, w := range tt.wantStdout {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout %q, want it to contain %q", r.stdout, w)
				}
			}
		})
	}
}

// TestHealthReady: --ready asks /api/health?ready, the form for load
// balancers and rolling deploys.
func TestHealthReady(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var queries []string
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
	}))
	defer h.Close()
	addr := h.Listener.Addr().String()
	wantExit(t, run(t, nil, "", "health", "--ready", "--clips-addr", addr, "--movies-addr", addr), 0)
	mu.Lock()
	defer mu.Unlock()
	if len(queries) != 2 || queries[0] != "/api/health?ready" || queries[1] != "/api/health?ready" {
		t.Errorf("got requests %q, want /api/health?ready twice", queries)
	}
}

// TestOneVersion: the version command, both services' /api/health and
// OpenAPI documents, and the "listening" log line all carry the same
// version.
func TestOneVersion(t *testing.T) {
	t.Parallel()
	r := run(t, nil, "", "version")
	wantExit(t, r, 0)
	version := strings.TrimPrefix(strings.TrimSpace(r.stdout), "catalog ")
	srv := startServe(t, map[string]string{"CATALOG_DB": testdb.New(t).DSN()}, serveArgs()...)
	for _, addr := range []string{srv.addrs.Clips.String(), srv.addrs.Movies.String()} {
		var health struct{ Version string }
		getJSON(t, http.DefaultClient, "http://"+addr+"/api/health", &health)
		var doc struct{ Info struct{ Version string } }
		getJSON(t, http.DefaultClient, "http://"+addr+"/api/openapi.json", &doc)
		if health.Version != version || doc.Info.Version != version {
			t.Errorf("%s: /api/health version %q, openapi.json info.version %q, want %q (catalog version)",
				addr, health.Version, doc.Info.Version, version)
		}
	}
	srv.stop(t)
	var logged []any
	for _, l := range logLines(t, srv.stderr.String()) {
		if l["msg"] == "listening" {
			logged = append(logged, l["version"])
		}
	}
	if len(logged) != 1 || logged[0] != version {
		t.Errorf("listening log lines carry versions %v, want one with %q", logged, version)
	}
}
