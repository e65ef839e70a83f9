// Package metrics exposes what an operator puts on a dashboard or alerts
// on (contract 7), in the Prometheus text format: requests by service,
// route pattern and status class, the response caches, the database
// pools, the snapshot builds, imports and logins.
//
// Every Registry has its own prometheus.Registry, so that two serves in
// one test process never share a series. A nil *Registry is valid and
// records nothing: the callers need no "metrics on?" branches.
//
// Label values come only from fixed sets (service names, route patterns
// registered on a ServeMux, status classes, pool names), never from a
// path or anything else a client sends, so the number of series is
// bounded by the route table.
package metrics

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"catalog/internal/cache"
	"catalog/internal/httpx"
	"catalog/internal/linkcheck"
	"catalog/internal/snapshot"
)

// Unmatched is the route label of requests answered before a route
// matched: unknown paths (404), other methods (405), malformed query
// strings and refused cross-origin writes.
const Unmatched = "unmatched"

// Registry holds one serve's metrics.
type Registry struct {
	reg *prometheus.Registry

	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec

	loginFailures  prometheus.Counter
	loginThrottled prometheus.Counter

	snapshotBuilds   *prometheus.CounterVec
	snapshotDuration prometheus.Histogram
	snapshotBytes    *prometheus.GaugeVec
	snapshotSuccess  prometheus.Gauge
	snapshotGen      atomic.Int64 // Unix seconds of the served snapshot's generated_at; 0 = none yet

	importRecords *prometheus.CounterVec
	purges        *prometheus.CounterVec

	collectRuns    *prometheus.CounterVec
	collectRecords *prometheus.CounterVec

	linkChecks *prometheus.CounterVec
}

// New returns a Registry with the Go runtime and process collectors and
// every series of this package registered.
func New() *Registry {
	m := &Registry{reg: prometheus.NewRegistry()}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := factory{m.reg}

	m.requests = f.counterVec("catalog_http_requests_total",
		"HTTP requests answered, by service, route pattern and status class (499: the connection went away first).", "service", "route", "code")
	// From a cached hit to a deep search or the snapshot on a slow
	// link.
	m.duration = f.histogramVec("catalog_http_request_duration_seconds",
		"Time to answer an HTTP request, by service and route pattern.",
		[]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}, "service", "route")

	m.loginFailures = f.counter("catalog_login_failures_total",
		"Admin logins refused for wrong credentials (401).")
	m.loginThrottled = f.counter("catalog_login_throttled_total",
		"Admin logins refused by the failed-login limits (429).")

	m.snapshotBuilds = f.counterVec("catalog_snapshot_builds_total",
		"Snapshot builds run, by result (ok, error).", "result")
	m.snapshotDuration = f.histogram("catalog_snapshot_build_duration_seconds",
		"Time to build one snapshot, failed builds included.",
		[]float64{.1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600})
	m.snapshotBytes = f.gaugeVec("catalog_snapshot_size_bytes",
		"Size of the served snapshot, by encoding (gzip as stored, identity as decompressed).", "encoding")
	m.snapshotSuccess = f.gauge("catalog_snapshot_last_success_timestamp_seconds",
		"Unix time of the last successful snapshot build (0: none yet).")
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "catalog_snapshot_age_seconds",
		Help: "Seconds since the served snapshot was generated (0 until the first one exists).",
	}, func() float64 {
		gen := m.snapshotGen.Load()
		if gen == 0 {
			return 0
		}
		return time.Since(time.Unix(gen, 0)).Seconds()
	}))

	m.importRecords = f.counterVec("catalog_import_records_total",
		"Import records by kind (movies, clips) and outcome (read, written, rejected).", "kind", "outcome")
	// Series that exist from the start read 0 instead of "no data", so
	// that rate() and alerts work before the first event.
	for _, kind := range []string{"movies", "clips"} {
		for _, outcome := range []string{"read", "written", "rejected"} {
			m.importRecords.WithLabelValues(kind, outcome)
		}
	}
	m.purges = f.counterVec("catalog_edge_purges_total",
		"Edge purge requests (--purge-url) by result: ok, or failed after every retry.", "result")
	m.snapshotBuilds.WithLabelValues("ok")
	m.snapshotBuilds.WithLabelValues("error")
	m.purges.WithLabelValues("ok")
	m.purges.WithLabelValues("failed")
	m.registerCollect(f)
	m.registerLinks(f, linkcheck.Results)
	return m
}

// Handler serves the metrics in the Prometheus text format (or
// OpenMetrics when the scraper asks for it).
func (m *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, EnableOpenMetrics: true})
}

// Gatherer is the underlying registry, for tests and custom exporters.
func (m *Registry) Gatherer() prometheus.Gatherer { return m.reg }

// Service wraps one service's handler: every request is counted and
// timed under its route pattern. loginRoute (e.g. "POST /admin/login",
// "" for none) names the login form: its 401 answers count as login
// failures, its 429 answers as throttled logins. Counting at the HTTP
// answer keeps this independent of how the login handler decides.
func (m *Registry) Service(name, loginRoute string, next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	requests := m.requests.MustCurryWith(prometheus.Labels{"service": name})
	duration := m.duration.MustCurryWith(prometheus.Labels{"service": name})
	// The series of each route, looked up once: WithLabelValues hashes
	// its labels on every call, which a per-request path must not pay.
	var routes sync.Map // route label -> *routeSeries
	seriesOf := func(label string) *routeSeries {
		if rs, ok := routes.Load(label); ok {
			return rs.(*routeSeries)
		}
		// Every class exists from the route's first request on, so
		// that an error ratio reads 0, not "no data".
		rs := &routeSeries{duration: duration.WithLabelValues(label), vec: requests, label: label}
		for i, class := range statusClasses {
			rs.requests[i] = requests.WithLabelValues(label, class)
		}
		actual, _ := routes.LoadOrStore(label, rs)
		return actual.(*routeSeries)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, route := httpx.WithRouteSlot(r)
		rec := httpx.Record(w, r)
		defer func() {
			// Deferred so that an aborted response (http.ErrAbortHandler
			// re-panicked by the recovery middleware) is counted too.
			label := *route
			if label == "" || label == "/" {
				label = Unmatched
			}
			status := rec.Status()
			switch {
			case httpx.ClientGone(r):
				status = httpx.StatusClientClosed
			case status == 0:
				status = http.StatusOK
			}
			rs := seriesOf(label)
			rs.count(status)
			rs.duration.Observe(time.Since(start).Seconds())
			if loginRoute != "" && label == loginRoute {
				switch status {
				case http.StatusUnauthorized:
					m.loginFailures.Inc()
				case http.StatusTooManyRequests:
					m.loginThrottled.Inc()
				}
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// statusClasses are the values of the code label of final answers;
// net/http allows no others but 1xx, which are never final. "499"
// counts the requests whose connection went away before their answer
// (httpx.StatusClientClosed), apart from 4xx and 5xx, so that visitors
// closing tabs never look like server errors.
var statusClasses = [...]string{"2xx", "3xx", "4xx", "5xx", "499"}

// routeSeries are one route's series.
type routeSeries struct {
	requests [len(statusClasses)]prometheus.Counter
	duration prometheus.Observer
	vec      *prometheus.CounterVec
	label    string
}

func (rs *routeSeries) count(status int) {
	if status == httpx.StatusClientClosed {
		rs.requests[len(statusClasses)-1].Inc()
		return
	}
	if i := status/100 - 2; i >= 0 && i < len(statusClasses) {
		rs.requests[i].Inc()
		return
	}
	rs.vec.WithLabelValues(rs.label, "other").Inc()
}

// Cache returns the counters for one service's response cache (pass
// them in the service's Config); nil when m is nil.
func (m *Registry) Cache(service string) *cache.Stats {
	if m == nil {
		return nil
	}
	st := new(cache.Stats)
	labels := prometheus.Labels{"service": service}
	load := func(v *atomic.Int64) func() float64 { return func() float64 { return float64(v.Load()) } }
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "catalog_response_cache_hits_total", ConstLabels: labels,
			Help: "Read answers served from the response cache (or from a concurrent request's fill)."}, load(&st.Hits)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "catalog_response_cache_misses_total", ConstLabels: labels,
			Help: "Read answers that had to query the database."}, load(&st.Misses)),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "catalog_response_cache_bytes", ConstLabels: labels,
			Help: "Bytes held by the response cache (plain and gzip bodies)."}, load(&st.Bytes)),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "catalog_response_cache_entries", ConstLabels: labels,
			Help: "Responses held by the response cache."}, load(&st.Entries)),
	)
	return st
}

// Snapshot records one snapshot build (snapshot.Config.Observe).
func (m *Registry) Snapshot(b snapshot.Build) {
	if m == nil {
		return
	}
	m.snapshotDuration.Observe(b.Duration.Seconds())
	if b.Err != nil {
		m.snapshotBuilds.WithLabelValues("error").Inc()
		return
	}
	// The count goes last: once a scrape has seen the build counted,
	// every later scrape also sees its size and time. (One scrape is not
	// atomic: it may read the size before the count.)
	m.snapshotSuccess.SetToCurrentTime()
	m.snapshotBytes.WithLabelValues("gzip").Set(float64(b.GzipBytes))
	m.snapshotBytes.WithLabelValues("identity").Set(float64(b.PlainBytes))
	m.snapshotGen.Store(b.GeneratedAt.Unix())
	m.snapshotBuilds.WithLabelValues("ok").Inc()
}

// SnapshotEvery publishes serve's --snapshot-every as
// catalog_snapshot_interval_seconds, so that an alert on the snapshot's
// age can say "twice the interval" whatever the flag. Call it once.
func (m *Registry) SnapshotEvery(every time.Duration) {
	if m == nil {
		return
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "catalog_snapshot_interval_seconds",
		Help: "Seconds between snapshot rebuilds (--snapshot-every)."})
	g.Set(every.Seconds())
	m.reg.MustRegister(g)
}

// Import adds one import's counts; kind is "movies" or "clips".
func (m *Registry) Import(kind string, read, written, rejected int) {
	if m == nil {
		return
	}
	m.importRecords.WithLabelValues(kind, "read").Add(float64(read))
	m.importRecords.WithLabelValues(kind, "written").Add(float64(written))
	m.importRecords.WithLabelValues(kind, "rejected").Add(float64(rejected))
}

// Purge records one finished edge purge (edge.PurgerConfig.Done).
func (m *Registry) Purge(_ []string, err error) {
	if m == nil {
		return
	}
	if err != nil {
		m.purges.WithLabelValues("failed").Inc()
		return
	}
	m.purges.WithLabelValues("ok").Inc()
}

// factory registers what it makes.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

func (f factory) histogram(name, help string, buckets []float64) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
	f.reg.MustRegister(h)
	return h
}

func (f factory) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}
