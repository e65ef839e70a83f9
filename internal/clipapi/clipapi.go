// Package clipapi is the clip service (contract 2, 3 and 5): the JSON API
// under /api and the admin pages under /admin, behind one handler.
package clipapi

import (
	"log/slog"
	"net/http"

	"catalog/internal/admin"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/search"
)

// Config configures New.
type Config struct {
	Store     catalog.Store
	Platforms *catalog.Platforms // nil: catalog.DefaultPlatforms
	Logger    *slog.Logger       // nil: discard
	Version   string
	// CookieSecure marks the session cookie Secure on plain-HTTP
	// requests too (behind a TLS-terminating proxy).
	CookieSecure bool
	// Search, when set, answers text searches (see internal/search);
	// the caller starts it.
	Search *search.Live
}

// server holds the dependencies of the clip handlers.
type server struct {
	store     catalog.Store
	platforms *catalog.Platforms
	log       *slog.Logger
	version   string
	admin     *admin.Service
	// platformsPayload never changes while the process runs.
	platformsPayload *httpx.Payload
	reads            *reads
	search           *search.Live // nil: the database searches
}

// New returns the whole clip service. Cross-origin browser requests that
// change state are refused with 403 before any handler runs.
func New(cfg Config) http.Handler {
	s := &server{
		store:     cfg.Store,
		platforms: cfg.Platforms,
		log:       cfg.Logger,
		version:   cfg.Version,
		reads:     newReads(cfg.Store),
		search:    cfg.Search,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.platforms == nil {
		p, err := catalog.NewPlatforms(catalog.DefaultPlatforms)
		if err != nil {
			panic(err) // the built-in list is valid
		}
		s.platforms = p
	}
	s.admin = admin.New(admin.Config{
		Store:        cfg.Store,
		Platforms:    s.platforms,
		Logger:       s.log,
		CookieSecure: cfg.CookieSecure,
	})
	s.platformsPayload = httpx.NewPayload(platformsJSON(s.platforms))
	if s.reads.keyset != nil {
		// Build the id orders now, not on the first list request: until
		// an order is built every deep page is an OFFSET scan, and a
		// burst of those on a cold server queues for seconds.
		s.order("")
		for _, p := range s.platforms.List() {
			s.order(p)
		}
	}

	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, catalog.Errorf(catalog.EFORBIDDEN, "cross-origin request refused"))
	}))
	return httpx.Common(csrf.Handler(s.routes()), s.log, s.writeError)
}

func platformsJSON(p *catalog.Platforms) []byte {
	b := []byte(`{"data":[`)
	for i, v := range p.List() {
		if i > 0 {
			b = append(b, ',')
		}
		b = catalog.AppendJSONString(b, v)
	}
	return append(b, "]}"...)
}
