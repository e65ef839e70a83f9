package cli_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"catalog/internal/testdb"
)

// scrape reads /metrics with the Prometheus text parser.
func scrape(tb testing.TB, addr string) map[string]*dto.MetricFamily {
	tb.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET /metrics: got %d, want 200", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		tb.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// value is the value of the series of family name with exactly labels
// (counter, gauge, or a histogram's count); 0 when absent.
func value(families map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	f := families[name]
	if f == nil {
		return 0
	}
next:
	for _, m := range f.GetMetric() {
		if len(m.GetLabel()) != len(labels) {
			continue
		}
		for _, l := range m.GetLabel() {
			if labels[l.GetName()] != l.GetValue() {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		case m.Untyped != nil:
			return m.Untyped.GetValue()
		}
	}
	return 0
}

func TestServeMetrics(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN()}
	wantExit(t, run(t, env, "", "seed", "--movies", "30", "--clips", "5"), 0)
	wantExit(t, run(t, env, "correct horse battery staple\n", "admin", "create", "--username", "alice"), 0)
	tok := run(t, env, "", "token", "create", "--name", "importer", "--scope", "movies:write")
	wantExit(t, tok, 0)
	token := strings.TrimSpace(tok.stdout)
	// serve purges the snapshot from the edge just after it reports the
	// build to the metrics: that purge is the test's signal.
	purges, purgeURL := newPurgeLog(t)
	env["CATALOG_PURGE_URL"] = purgeURL
	srv := startServe(t, env, append(serveArgs(), "--metrics-addr", "127.0.0.1:0")...)
	if srv.addrs.Metrics == nil {
		t.Fatal("serve with --metrics-addr reported no metrics address")
	}
	metricsAddr := srv.addrs.Metrics.String()
	clips, movies := "http://"+srv.addrs.Clips.String(), "http://"+srv.addrs.Movies.String()

	// The public addresses never show the metrics.
	for _, base := range []string{clips, movies} {
		if r := call(t, http.MethodGet, base+"/metrics", "", nil); r.status != http.StatusNotFound {
			t.Errorf("GET %s/metrics: got %d, want 404", base, r.status)
		}
	}
	// And the metrics address shows nothing else.
	if r := call(t, http.MethodGet, "http://"+metricsAddr+"/api/movies", "", nil); r.status != http.StatusNotFound {
		t.Errorf("GET /api/movies on the metrics address: got %d, want 404", r.status)
	}

	// The first snapshot build is reported.
	purges.waitFor(t, "snapshot")
	before := scrape(t, metricsAddr)
	if got := value(before, "catalog_snapshot_builds_total", map[string]string{"result": "ok"}); got < 1 {
		t.Errorf("snapshot builds: got %v, want at least 1", got)
	}
	if r := call(t, http.MethodGet, movies+"/api/movies/snapshot", "", nil); r.status != http.StatusOK {
		t.Errorf("snapshot after the build was reported: got %d, want 200", r.status)
	}
	if got := value(before, "catalog_snapshot_build_duration_seconds", nil); got < 1 {
		t.Errorf("snapshot build duration observations: got %v, want at least 1", got)
	}
	if got := value(before, "catalog_snapshot_size_bytes", map[string]string{"encoding": "gzip"}); got <= 0 {
		t.Errorf("snapshot gzip size: got %v, want > 0", got)
	}
	if got := value(before, "catalog_snapshot_last_success_timestamp_seconds", nil); got < float64(time.Now().Add(-time.Minute).Unix()) {
		t.Errorf("snapshot last success: got %v, want about now", got)
	}
	// The search indexes: their size once ready (5 clips, 30 movies seeded).
	srv.stderr.waitLog(t, 2, "search index ready")
	for service, want := range map[string]float64{"clips": 5, "movies": 30} {
		labels := map[string]string{"service": service}
		now := scrape(t, metricsAddr)
		if got := value(now, "catalog_search_index_ready", labels); got != 1 {
			t.Errorf("%s search index ready: got %v, want 1", service, got)
		}
		if got := value(now, "catalog_search_index_documents", labels); got != want {
			t.Errorf("%s search index documents: got %v, want %v", service, got, want)
		}
		if got := value(now, "catalog_search_index_bytes", labels); got <= 0 {
			t.Errorf("%s search index bytes: got %v, want > 0", service, got)
		}
		if f := now["catalog_search_index_lag_changes"]; f == nil {
			t.Errorf("no catalog_search_index_lag_changes series")
		}
		// A first start has no index file: one build each.
		if got := value(now, "catalog_search_index_builds_total", labels); got != 1 {
			t.Errorf("%s search index builds: got %v, want 1", service, got)
		}
	}
	if got := value(before, "catalog_db_pool_max_connections", map[string]string{"pool": dbPool()}); got <= 0 {
		t.Errorf("database pool %s max connections: got %v, want > 0", dbPool(), got)
	}

	// Two reads of one list: a miss, then a hit. A detail, an unknown
	// path and a failed login.
	for range 2 {
		if r := call(t, http.MethodGet, movies+"/api/movies?limit=5", "", nil); r.status != http.StatusOK {
			t.Fatalf("GET /api/movies: got %d", r.status)
		}
	}
	call(t, http.MethodGet, movies+"/api/movies/1", "", nil)
	call(t, http.MethodGet, clips+"/no/such/path-4711", "", nil)
	badLogin := "form:" + url.Values{"username": {"alice"}, "password": {"wrong password, wrong"}}.Encode()
	if r := call(t, http.MethodPost, clips+"/admin/login", badLogin, nil); r.status != http.StatusUnauthorized {
		t.Fatalf("failed login: got %d, want 401", r.status)
	}

	// An import through the API: two good records, one rejected.
	req, _ := http.NewRequest(http.MethodPost, clips+"/api/import/movies", strings.NewReader(
		`{"name": "Imported one", "id_code": "MET-001"}`+"\n"+`{"name": ""}`+"\n"+`{"name": "Imported two", "id_code": "MET-002"}`+"\n"))
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("import API: got %d, want 200", resp.StatusCode)
	}

	after := scrape(t, metricsAddr)
	delta := func(name string, labels map[string]string) float64 {
		return value(after, name, labels) - value(before, name, labels)
	}
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"catalog_http_requests_total", map[string]string{"service": "movies", "route": "GET /api/movies", "code": "2xx"}, 2},
		{"catalog_http_request_duration_seconds", map[string]string{"service": "movies", "route": "GET /api/movies"}, 2},
		{"catalog_http_requests_total", map[string]string{"service": "movies", "route": "GET /api/movies/{id}", "code": "2xx"}, 1},
		{"catalog_http_requests_total", map[string]string{"service": "clips", "route": "unmatched", "code": "4xx"}, 1},
		{"catalog_http_requests_total", map[string]string{"service": "clips", "route": "POST /admin/login", "code": "4xx"}, 1},
		{"catalog_response_cache_misses_total", map[string]string{"service": "movies"}, 2}, // the list, then the detail
		{"catalog_response_cache_hits_total", map[string]string{"service": "movies"}, 1},
		{"catalog_login_failures_total", nil, 1},
		{"catalog_login_throttled_total", nil, 0},
		{"catalog_import_records_total", map[string]string{"kind": "movies", "outcome": "read"}, 3},
		{"catalog_import_records_total", map[string]string{"kind": "movies", "outcome": "written"}, 2},
		{"catalog_import_records_total", map[string]string{"kind": "movies", "outcome": "rejected"}, 1},
		{"catalog_http_requests_total", map[string]string{"service": "clips", "route": "POST /api/import/{kind}", "code": "2xx"}, 1},
	} {
		if got := delta(c.name, c.labels); got != c.want {
			t.Errorf("%s%v: moved by %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if got := value(after, "catalog_response_cache_bytes", map[string]string{"service": "movies"}); got <= 0 {
		t.Errorf("movie response cache bytes: got %v, want > 0", got)
	}
	// No label value is a raw path or anything else the client sent.
	for name, f := range after {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), "4711") || strings.Contains(l.GetValue(), "/api/movies/1") ||
					strings.Contains(l.GetValue(), "limit") {
					t.Errorf("%s has label %s=%q, taken from a request", name, l.GetName(), l.GetValue())
				}
			}
		}
	}

	// Failures up to the limit are 401s, then the throttle answers 429.
	var failures, throttled float64 = 1, 0
	for i := 0; i < 30 && throttled == 0; i++ {
		switch r := call(t, http.MethodPost, clips+"/admin/login", badLogin, nil); r.status {
		case http.StatusUnauthorized:
			failures++
		case http.StatusTooManyRequests:
			throttled++
		default:
			t.Fatalf("failed login: got %d", r.status)
		}
	}
	final := scrape(t, metricsAddr)
	if got := value(final, "catalog_login_failures_total", nil) - value(before, "catalog_login_failures_total", nil); got != failures {
		t.Errorf("login failures: moved by %v, want %v", got, failures)
	}
	if got := value(final, "catalog_login_throttled_total", nil); got != throttled || throttled != 1 {
		t.Errorf("throttled logins: got %v, want %v (and a 429 within 30 tries)", got, throttled)
	}
}

// dbPool is a pool every engine reports.
func dbPool() string {
	if testdb.Engine() == testdb.SQLite {
		return "reader"
	}
	return "pgx"
}

func TestServeMetricsOffByDefault(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	srv := startServe(t, map[string]string{"CATALOG_DB": db.DSN()}, serveArgs()...)
	if srv.addrs.Metrics != nil {
		t.Errorf("metrics address without --metrics-addr: got %v, want none", srv.addrs.Metrics)
	}
	if r := call(t, http.MethodGet, "http://"+srv.addrs.Clips.String()+"/metrics", "", nil); r.status != http.StatusNotFound {
		t.Errorf("GET /metrics on the clip service: got %d, want 404", r.status)
	}
}
