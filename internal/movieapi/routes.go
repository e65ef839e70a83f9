// Package movieapi is the movie service (contract 4): /api/movies with
// fields selection, the legacy /api/jav form, the snapshot, CORS and
// edge-cache headers.
package movieapi

import (
	"log/slog"
	"net/http"
	"time"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/edge"
	"catalog/internal/hits"
	"catalog/internal/httpx"
	"catalog/internal/ratelimit"
	"catalog/internal/search"
	"catalog/internal/snapshot"
)

// Config holds the service's dependencies.
type Config struct {
	Store     catalog.Store
	Snapshots *snapshot.Service
	Logger    *slog.Logger
	Version   string
	// ReadTimeout is the deadline of every read but the snapshot, which
	// streams a file, not database work (0: httpx.DefaultReadTimeout).
	ReadTimeout time.Duration
	// CacheStats, when set, counts the response cache's hits and misses.
	CacheStats *cache.Stats
	// Reported, when set, hears of every failure report that counted
	// (the link prober looks at its queue at once).
	Reported func()
	// Hits adds up the hits that count (internal/hits), which the
	// caller writes (hits.Counter.Run); nil: New makes one and writes
	// its batches every hits.DefaultEvery until the process ends.
	Hits HitCounter
	// Search is the movies' index (internal/search), the read model of
	// every list, started by the caller; nil: New makes one over Store,
	// started by its first search and kept until the process ends.
	Search *search.Live
	// DefaultLanguage is the language of the API reference page for a
	// browser that asks for none of the pages' (internal/locale); ""
	// is English.
	DefaultLanguage string
}

// server holds the handlers' dependencies.
type server struct {
	store     catalog.Store
	snapshots *snapshot.Service
	log       *slog.Logger
	now       func() time.Time
	reads     *cache.Reads
	search    *search.Live
	lang      string          // the reference page's default language
	reports   *ratelimit.Once // one report per client address per movie per ReportWindow
	reported  func()
	hits      HitCounter
	hitLimit  *ratelimit.Once // one hit per client address per movie per HitWindow
}

// New returns the whole movie service.
func New(cfg Config) http.Handler {
	s := &server{store: cfg.Store, snapshots: cfg.Snapshots, log: cfg.Logger, now: time.Now, search: cfg.Search,
		lang: cfg.DefaultLanguage, reports: ratelimit.NewOnce(ReportWindow, 0), reported: cfg.Reported,
		hits: cfg.Hits, hitLimit: ratelimit.NewOnce(HitWindow, hitKeys)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.hits == nil {
		s.hits = &ownCounter{c: hits.New(cfg.Store, hits.Options{Logger: s.log})}
	}
	if s.search == nil {
		s.search = search.NewLive(cfg.Store, catalog.SearchMovies, s.log)
	}
	s.reads = cache.ForStore(cfg.Store, catalog.SearchMovies)
	s.reads.SetStats(cfg.CacheStats)
	return httpx.Stack{
		Log:         s.log,
		Errors:      s.writeError,
		ReadTimeout: cfg.ReadTimeout,
		NoDeadline:  []string{snapshotPath},
		Headers:     edgeHeaders,
	}.Handler(s.routes(cfg.Version))
}

// snapshotPath is the one read without a deadline (--read-timeout): it
// streams a file of any size to clients of any speed, which a deadline
// meant for database work must not cut short.
const snapshotPath = "/api/movies/snapshot"

// routes is the whole route table (contract 4.3): every read answers
// GET (and HEAD) and its CORS preflight.
func (s *server) routes(version string) *httpx.Router {
	rt := httpx.NewRouter(s.writeError)
	api := httpx.ErrorWriter(s.writeError).Handler
	get := func(path string, h http.Handler) {
		rt.Handle(http.MethodGet, path, h)
		rt.HandleFunc(http.MethodOptions, path, preflight)
	}
	get("/api/movies", api(s.listMovies))
	get(snapshotPath, edge.WithKeys(api(s.serveSnapshot), edge.Snapshot))
	get("/api/movies/{id}", movieKeys(api(s.movieDetail)))
	rt.Handle(http.MethodPost, reportPath, api(s.reportFailure))
	rt.HandleFunc(http.MethodOptions, reportPath, postPreflight)
	rt.Handle(http.MethodPost, hitPath, api(s.countHit))
	rt.HandleFunc(http.MethodOptions, hitPath, postPreflight)
	get(posterPath, movieKeys(api(s.servePoster)))
	get("/api/jav", api(s.listJav))
	get("/api/jav/{id}", movieKeys(api(s.javDetail)))
	get("/api/health", httpx.Health(s.store.Ping, s.search.Ready, version))
	// MacCMS resource API (contract 6), under the paths MacCMS sites use.
	get("/api.php/provide/vod", api(s.provideVod(formatQuery)))
	get("/api.php/provide/vod/{$}", api(s.provideVod(formatQuery)))
	get("/api/provide/vod", api(s.provideVod(formatQuery)))
	for _, format := range []string{formatXML, formatJSON} {
		get("/api.php/provide/vod/at/"+format, api(s.provideVod(format)))
		get("/api.php/provide/vod/at/"+format+"/{$}", api(s.provideVod(format)))
	}
	// Any other /KEY/VALUE pairs, ThinkPHP style (contract 6).
	for _, path := range pairPaths() {
		get(path, api(s.provideVod(formatQuery)))
	}
	// The OpenAPI document and its reference page.
	for _, d := range s.docs(version).Routes() {
		get(d.Path, d.Handler)
	}
	return rt
}
