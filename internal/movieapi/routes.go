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
	"catalog/internal/snapshot"
)

// Config holds the service's dependencies.
type Config struct {
	Store     catalog.Store
	Snapshots *snapshot.Service
	Logger    *slog.Logger
	Version   string
}

// server holds the handlers' dependencies.
type server struct {
	store     catalog.Store
	snapshots *snapshot.Service
	log       *slog.Logger
	now       func() time.Time
	reads     *reads
}

// New returns the whole movie service.
func New(cfg Config) http.Handler {
	s := &server{store: cfg.Store, snapshots: cfg.Snapshots, log: cfg.Logger, now: time.Now, reads: newReads(cfg.Store)}
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

// routes is the whole service: the route table behind the headers
// every response carries.
func (s *server) routes(version string) http.Handler {
	return httpx.Common(edgeHeaders(s.table(version)), s.log, s.writeError)
}

// table is the whole route table (contract 4.3).
func (s *server) table(version string) *httpx.Router {
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
	// The OpenAPI document and its reference page (issue 12).
	for _, d := range s.docs(version).Routes() {
		get(d.Path, d.Handler)
	}
	return rt
}
