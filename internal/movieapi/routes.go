// Package movieapi is the movie service (contract 4): /api/movies with
// fields selection, the legacy /api/jav form, the snapshot, CORS and
// edge-cache headers.
package movieapi

import (
	"log/slog"
	"net/http"
	"time"

	"catalog/internal/catalog"
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
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.reads.keyset != nil {
		// Build the id order now, not on the first list request: until
		// it is built every deep page is an OFFSET scan, and a burst of
		// those on a cold server queues for seconds.
		s.movieOrder()
	}
	return s.routes(cfg.Version)
}

// routes is the whole route table (contract 4.3).
func (s *server) routes(version string) http.Handler {
	rt := httpx.NewRouter(s.writeError)
	get := func(path string, h http.HandlerFunc) {
		rt.Handle(http.MethodGet, path, h)
		rt.Handle(http.MethodOptions, path, http.HandlerFunc(preflight))
	}
	get("/api/movies", s.listMovies)
	get("/api/movies/snapshot", s.serveSnapshot)
	get("/api/movies/{id}", s.movieDetail)
	get("/api/jav", s.listJav)
	get("/api/jav/{id}", s.javDetail)
	get("/api/health", httpx.Health(s.store.Ping, version))
	return httpx.Common(edgeHeaders(rt), s.log, s.writeError)
}
