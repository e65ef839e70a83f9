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
	"catalog/internal/httpx"
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
	// Search, when set, answers text searches (see internal/search);
	// the caller starts it.
	Search *search.Live
}

// server holds the handlers' dependencies.
type server struct {
	store     catalog.Store
	snapshots *snapshot.Service
	log       *slog.Logger
	now       func() time.Time
	reads     *reads
	search    *search.Live // nil: the database searches
}

// New returns the whole movie service.
func New(cfg Config) http.Handler {
	s := &server{store: cfg.Store, snapshots: cfg.Snapshots, log: cfg.Logger, now: time.Now, reads: newReads(cfg.Store),
		search: cfg.Search}
	s.reads.SetStats(cfg.CacheStats)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.reads.keyset != nil {
		// Build the id order now, not on the first list request: until
		// it is built every deep page is an OFFSET scan, and a burst of
		// those on a cold server queues for seconds.
		s.movieOrder()
	}
	return s.routes(cfg.Version, cfg.ReadTimeout)
}

// snapshotPath is the one read without a deadline (--read-timeout): it
// streams a file of any size to clients of any speed, which a deadline
// meant for database work must not cut short.
const snapshotPath = "/api/movies/snapshot"

// routes is the whole service: the route table behind the headers
// every response carries.
func (s *server) routes(version string, readTimeout time.Duration) http.Handler {
	return httpx.Common(edgeHeaders(s.table(version, readTimeout)), s.log, s.writeError)
}

// table is the whole route table (contract 4.3).
func (s *server) table(version string, readTimeout time.Duration) *httpx.Router {
	rt := httpx.NewRouter(s.writeError)
	get := func(path string, h http.HandlerFunc) {
		var read http.Handler = h
		if path != snapshotPath {
			read = httpx.ReadDeadline(h, readTimeout)
		}
		rt.Handle(http.MethodGet, path, read)
		rt.Handle(http.MethodOptions, path, http.HandlerFunc(preflight))
	}
	get("/api/movies", s.listMovies)
	get("/api/movies/snapshot", withKeys(s.serveSnapshot, edge.Snapshot))
	get("/api/movies/{id}", movieKeys(s.movieDetail))
	get("/api/jav", s.listJav)
	get("/api/jav/{id}", movieKeys(s.javDetail))
	get("/api/health", httpx.Health(s.store.Ping, version))
	// MacCMS resource API (contract 6), under the paths MacCMS sites use.
	get("/api.php/provide/vod", s.provideVod(formatQuery))
	get("/api.php/provide/vod/{$}", s.provideVod(formatQuery))
	get("/api/provide/vod", s.provideVod(formatQuery))
	for _, format := range []string{formatXML, formatJSON} {
		get("/api.php/provide/vod/at/"+format, s.provideVod(format))
		get("/api.php/provide/vod/at/"+format+"/{$}", s.provideVod(format))
	}
	// The OpenAPI document and its reference page (issue 12).
	for _, d := range s.docs(version).Routes() {
		get(d.Path, d.Handler)
	}
	return rt
}
