// Package movieapi is the movie service's API (contract 4): /api/movies
// with fields selection, the legacy /api/jav form, the snapshot, the
// MacCMS API, CORS and edge-cache headers, every route listed in
// routes.go. The service around it (middleware) is assembled in
// internal/cli (services.go).
package movieapi

import (
	"log/slog"
	"net/http"
	"time"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/edge"
	"catalog/internal/httpx"
	"catalog/internal/maccms"
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
	// CacheStats, when set, counts the response cache's hits and misses.
	CacheStats *cache.Stats
	// Reported, when set, hears of every failure report that counted
	// (the link prober looks at its queue at once).
	Reported func()
	// Hits adds up the hits that count (internal/hits); the caller
	// builds it and writes its batches (hits.Counter.Run: serve, in
	// internal/cli). nil counts nothing: the beacon still answers as
	// contract 12 says (204, 404 for no such movie), for services
	// that write no batches (tests, tools).
	Hits HitCounter
	// Search is the movies' index (internal/search), the read model of
	// every list, started by the caller; required.
	Search *search.Live
	// DefaultLanguage is the language of the API reference page for a
	// browser that asks for none of the pages' (internal/locale); ""
	// is English.
	DefaultLanguage string
}

// API holds the handlers' dependencies.
type API struct {
	version   string
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

// New returns the movie API; Mount lists its routes, and Headers is
// the header policy of its answers.
func New(cfg Config) *API {
	if cfg.Search == nil {
		panic("movieapi: Search is required")
	}
	s := &API{version: cfg.Version, store: cfg.Store, snapshots: cfg.Snapshots, log: cfg.Logger, now: time.Now, search: cfg.Search,
		lang: cfg.DefaultLanguage, reports: ratelimit.NewOnce(ReportWindow, 0), reported: cfg.Reported,
		hits: cfg.Hits, hitLimit: ratelimit.NewOnce(HitWindow, hitKeys)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.reads = cache.ForStore(cfg.Store, catalog.SearchMovies)
	s.reads.SetStats(cfg.CacheStats)
	return s
}

// SnapshotPath is the one read without a deadline (--read-timeout): it
// streams a file of any size to clients of any speed, which a deadline
// meant for database work must not cut short.
const SnapshotPath = "/api/movies/snapshot"

// Mount adds the whole route table to rt (contract 4.3): every read
// answers GET (and HEAD) and its CORS preflight.
func (s *API) Mount(rt *httpx.Router) {
	api := httpx.ErrorWriter(s.WriteError).Handler
	get := func(path string, h http.Handler) {
		rt.Handle(http.MethodGet, path, h)
		rt.HandleFunc(http.MethodOptions, path, preflight)
	}
	get("/api/movies", api(s.list(false)))
	get(SnapshotPath, edge.WithKeys(api(s.serveSnapshot), edge.Snapshot))
	get("/api/movies/facets", api(s.movieFacets))
	get("/api/movies/{id}", api(s.detail(false)))
	rt.Handle(http.MethodPost, reportPath, api(s.reportFailure))
	rt.HandleFunc(http.MethodOptions, reportPath, postPreflight)
	rt.Handle(http.MethodPost, hitPath, api(s.countHit))
	rt.HandleFunc(http.MethodOptions, hitPath, postPreflight)
	get(posterPath, movieKeys(api(s.servePoster)))
	get("/api/jav", api(s.list(true)))
	get("/api/jav/{id}", api(s.detail(true)))
	get("/api/health", httpx.Health(s.store.Ping, s.search.Ready, s.version))
	// MacCMS resource API (contract 6), under the paths MacCMS sites use.
	vod := maccms.New(maccms.Config{Index: s.search, Types: s.store, Reads: s.reads})
	vod.Routes(func(path string, h httpx.HandlerFunc) { get(path, api(h)) })
	// The OpenAPI document and its reference page.
	for _, d := range s.docs(s.version).Routes() {
		get(d.Path, d.Handler)
	}
}
