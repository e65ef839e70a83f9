package metrics_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/metrics"
	"catalog/internal/snapshot"
)

func writeErr(w http.ResponseWriter, r *http.Request, err error) {
	w.WriteHeader(httpx.ErrorStatus(err))
}

// service is a small route table behind the metrics wrapper.
func service(m *metrics.Registry) http.Handler {
	rt := httpx.NewRouter(writeErr)
	rt.HandleFunc("GET", "/api/things/{id}", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	rt.HandleFunc("POST", "/login", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(map[string]int{"bad": 401, "slow": 429}[r.URL.Query().Get("as")])
	})
	rt.HandleFunc("GET", "/abort", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		panic(http.ErrAbortHandler)
	})
	return m.Service("things", "POST /login", rt)
}

func serve(h http.Handler, method, target string) {
	defer func() { recover() }() // the aborted request
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, target, nil))
}

func TestRequestLabels(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	h := service(m)
	for _, target := range []string{"/api/things/1", "/api/things/2", "/api/things/%3Cscript%3E"} {
		serve(h, "GET", target)
	}
	serve(h, "HEAD", "/api/things/3")
	serve(h, "GET", "/no/such/thing")
	serve(h, "DELETE", "/api/things/1") // 405
	serve(h, "GET", "/abort")
	serve(h, "POST", "/login?as=bad")
	serve(h, "POST", "/login?as=bad")
	serve(h, "POST", "/login?as=slow")

	want := `
# HELP catalog_http_requests_total HTTP requests answered, by service, route pattern and status class (499: the connection went away first).
# TYPE catalog_http_requests_total counter
catalog_http_requests_total{code="2xx",route="GET /abort",service="things"} 0
catalog_http_requests_total{code="2xx",route="GET /api/things/{id}",service="things"} 4
catalog_http_requests_total{code="2xx",route="POST /login",service="things"} 0
catalog_http_requests_total{code="2xx",route="unmatched",service="things"} 0
catalog_http_requests_total{code="3xx",route="GET /abort",service="things"} 0
catalog_http_requests_total{code="3xx",route="GET /api/things/{id}",service="things"} 0
catalog_http_requests_total{code="3xx",route="POST /login",service="things"} 0
catalog_http_requests_total{code="3xx",route="unmatched",service="things"} 0
catalog_http_requests_total{code="4xx",route="GET /abort",service="things"} 0
catalog_http_requests_total{code="4xx",route="GET /api/things/{id}",service="things"} 0
catalog_http_requests_total{code="4xx",route="POST /login",service="things"} 3
catalog_http_requests_total{code="4xx",route="unmatched",service="things"} 2
catalog_http_requests_total{code="5xx",route="GET /abort",service="things"} 1
catalog_http_requests_total{code="5xx",route="GET /api/things/{id}",service="things"} 0
catalog_http_requests_total{code="5xx",route="POST /login",service="things"} 0
catalog_http_requests_total{code="5xx",route="unmatched",service="things"} 0
catalog_http_requests_total{code="499",route="GET /abort",service="things"} 0
catalog_http_requests_total{code="499",route="GET /api/things/{id}",service="things"} 0
catalog_http_requests_total{code="499",route="POST /login",service="things"} 0
catalog_http_requests_total{code="499",route="unmatched",service="things"} 0
# HELP catalog_login_failures_total Admin logins refused for wrong credentials (401).
# TYPE catalog_login_failures_total counter
catalog_login_failures_total 2
# HELP catalog_login_throttled_total Admin logins refused by the failed-login limits (429).
# TYPE catalog_login_throttled_total counter
catalog_login_throttled_total 1
`
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want),
		"catalog_http_requests_total", "catalog_login_failures_total", "catalog_login_throttled_total"); err != nil {
		t.Error(err)
	}
	if n := series(t, m, "catalog_http_request_duration_seconds"); n != 4 {
		t.Errorf("latency series: got %d, want one per route (4)", n)
	}
}

// A client that hangs up before its answer is counted under code
// "499", never as a 5xx, even when the handler answers the cancelled
// work with a 503.
func TestClientGoneCountedApart(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	started := make(chan struct{})
	rt := httpx.NewRouter(writeErr)
	rt.HandleFunc("GET", "/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		writeErr(w, r, catalog.ContextError("slow", r.Context().Err()))
	})
	finished := make(chan struct{})
	h := m.Service("things", "", rt)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(finished)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/slow", nil)
	go func() {
		<-started
		cancel()
	}()
	if _, err := srv.Client().Do(req); err == nil {
		t.Fatal("the cancelled request got an answer")
	}
	<-finished
	for class, want := range map[string]float64{"499": 1, "5xx": 0, "4xx": 0, "2xx": 0} {
		got := requestCount(t, m, "GET /slow", class)
		if got != want {
			t.Errorf("code %q: got %v, want %v", class, got, want)
		}
	}
}

// requestCount reads one series of catalog_http_requests_total.
func requestCount(t *testing.T, m *metrics.Registry, route, code string) float64 {
	t.Helper()
	families, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "catalog_http_requests_total" {
			continue
		}
		for _, mt := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range mt.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["route"] == route && labels["code"] == code {
				return mt.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no series route=%q code=%q", route, code)
	return 0
}

// series counts the series of one family.
func series(t *testing.T, m *metrics.Registry, name string) int {
	t.Helper()
	families, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}

func TestNilRegistryRecordsNothing(t *testing.T) {
	t.Parallel()
	var m *metrics.Registry
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	if got := m.Service("x", "", h); got == nil {
		t.Fatal("nil registry: Service returned nil")
	}
	if m.Cache("x") != nil {
		t.Error("nil registry: Cache returned counters")
	}
	m.Snapshot(snapshot.Build{})
	m.Import("movies", 1, 1, 0)
	m.Purge(nil, nil)
	m.Pools(nil)
}

func TestSnapshotImportsAndPurges(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	m.Snapshot(snapshot.Build{Duration: 2 * time.Second, Err: errors.New("disk full")})
	m.Snapshot(snapshot.Build{Duration: time.Second, GeneratedAt: time.Now().Add(-time.Minute), GzipBytes: 100, PlainBytes: 900})
	m.Import("movies", 10, 8, 2)
	m.Purge([]string{"movies"}, nil)
	m.Purge([]string{"clips"}, errors.New("refused"))
	m.Pools(func() []metrics.Pool { return []metrics.Pool{{Name: "reader", Max: 8, InUse: 2, Idle: 3, Waits: 5}} })
	want := `
# HELP catalog_db_pool_connections Open connections by state (in_use, idle).
# TYPE catalog_db_pool_connections gauge
catalog_db_pool_connections{pool="reader",state="idle"} 3
catalog_db_pool_connections{pool="reader",state="in_use"} 2
# HELP catalog_edge_purges_total Edge purge requests (--purge-url) by result: ok, or failed after every retry.
# TYPE catalog_edge_purges_total counter
catalog_edge_purges_total{result="failed"} 1
catalog_edge_purges_total{result="ok"} 1
# HELP catalog_import_records_total Import records by kind (movies, clips) and outcome (read, written, rejected).
# TYPE catalog_import_records_total counter
catalog_import_records_total{kind="clips",outcome="read"} 0
catalog_import_records_total{kind="clips",outcome="rejected"} 0
catalog_import_records_total{kind="clips",outcome="written"} 0
catalog_import_records_total{kind="movies",outcome="read"} 10
catalog_import_records_total{kind="movies",outcome="rejected"} 2
catalog_import_records_total{kind="movies",outcome="written"} 8
# HELP catalog_snapshot_builds_total Snapshot builds run, by result (ok, error).
# TYPE catalog_snapshot_builds_total counter
catalog_snapshot_builds_total{result="error"} 1
catalog_snapshot_builds_total{result="ok"} 1
# HELP catalog_snapshot_size_bytes Size of the served snapshot, by encoding (gzip as stored, identity as decompressed).
# TYPE catalog_snapshot_size_bytes gauge
catalog_snapshot_size_bytes{encoding="gzip"} 100
catalog_snapshot_size_bytes{encoding="identity"} 900
`
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want), "catalog_db_pool_connections",
		"catalog_edge_purges_total", "catalog_import_records_total", "catalog_snapshot_builds_total", "catalog_snapshot_size_bytes"); err != nil {
		t.Error(err)
	}
	families, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "catalog_snapshot_age_seconds" {
			if age := f.GetMetric()[0].GetGauge().GetValue(); age < 59 || age > 120 {
				t.Errorf("snapshot age: got %v s, want about 60", age)
			}
		}
	}
}
