// Package clipapi is the clip service (contract 2, 3 and 5) behind one
// handler: its JSON API under /api (this package), the admin console
// under /admin (internal/admin), the public pages (internal/web) and
// their static files (internal/html), every route listed in routes.go.
// API requests authenticate through internal/auth, by API token or by
// the console's session cookie.
package clipapi

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"catalog/internal/admin"
	"catalog/internal/auth"
	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/importer"
	"catalog/internal/locale"
	"catalog/internal/search"
	"catalog/internal/snapshot"
	"catalog/internal/web"
)

// Config configures New.
type Config struct {
	Store     catalog.Store
	Platforms *catalog.Platforms // nil: catalog.DefaultPlatforms()
	Logger    *slog.Logger       // nil: discard
	Version   string
	// CookieSecure marks the session cookie Secure on plain-HTTP
	// requests too (behind a TLS-terminating proxy).
	CookieSecure bool
	// Snapshots, when set, is the movie snapshot the console shows and
	// rebuilds (contract 8).
	Snapshots *snapshot.Service
	// ReadTimeout is the deadline of every GET and HEAD request (0:
	// httpx.DefaultReadTimeout).
	ReadTimeout time.Duration
	// CacheStats, when set, counts the response cache's hits and misses.
	CacheStats *cache.Stats
	// Imported, when set, hears of every import (the API's and the
	// console's), for metrics.
	Imported importer.Observer
	// Search and MovieSearch are the clips' and the movies' indexes
	// (internal/search), the read model of every list (the console's
	// movie list reads the movies'), started by the caller; nil: New
	// makes one over Store, started by its first search and kept until
	// the process ends.
	Search, MovieSearch *search.Live
	// Collector, when set, runs the console's "Collect now".
	Collector *collect.Runner
	// Recheck, when set, wakes the link prober (the console's Dead links
	// page).
	Recheck func()
	// UploadMaxDuration bounds one import upload, the API's and the
	// console's (0: httpx.DefaultUploadMaxDuration).
	UploadMaxDuration time.Duration
	// DefaultLanguage is the language of the pages (public, console,
	// API reference) for a browser that asks for none of the
	// catalog's (serve --default-language); "" is English.
	DefaultLanguage string
}

// server holds the dependencies of the clip handlers.
type server struct {
	store     catalog.Store
	platforms *catalog.Platforms
	log       *slog.Logger
	version   string
	admin     *admin.Service
	pages     *web.Pages
	// assets are the static files, loaded once for the pages, the
	// console and the routes that serve them.
	assets   *html.Assets
	sessions *auth.Sessions
	tokens   *auth.Tokens
	// imports lets one import upload run at a time in this process,
	// through the API or the console.
	imports *importer.Slot
	// uploadMax bounds one import upload (Config.UploadMaxDuration).
	uploadMax time.Duration
	imported  importer.Observer
	// platformsPayload never changes while the process runs.
	platformsPayload *httpx.Payload
	reads            *cache.Reads
	search           *search.Live
	// locale is the pages' messages, lang their default language.
	locale *locale.Catalog
	lang   string
}

// New returns the whole clip service. Cross-origin browser requests that
// change state are refused with 403 before any handler runs, unless they
// authenticate with an API token and carry no cookie (contract 8).
func New(cfg Config) http.Handler {
	s := &server{
		store:     cfg.Store,
		platforms: cfg.Platforms,
		log:       cfg.Logger,
		version:   cfg.Version,
		search:    cfg.Search,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.search == nil {
		s.search = search.NewLive(cfg.Store, catalog.SearchClips, s.log)
	}
	movieSearch := cfg.MovieSearch
	if movieSearch == nil {
		movieSearch = search.NewLive(cfg.Store, catalog.SearchMovies, s.log)
	}
	s.reads = cache.ForStore(cfg.Store, catalog.SearchClips)
	s.reads.SetStats(cfg.CacheStats)
	if s.platforms == nil {
		p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
		if err != nil {
			panic(err) // the built-in list is valid
		}
		s.platforms = p
	}
	s.imports, s.imported, s.uploadMax = new(importer.Slot), cfg.Imported, cfg.UploadMaxDuration
	s.sessions = auth.NewSessions(cfg.Store, s.log, cfg.CookieSecure)
	s.tokens = auth.New(cfg.Store, s.log)
	s.assets = html.NewAssets()
	s.locale = locale.New()
	s.lang = cfg.DefaultLanguage
	s.pages = web.New(web.Config{Store: cfg.Store, Search: s.search, Platforms: s.platforms, Logger: s.log, Assets: s.assets,
		Locale: s.locale, DefaultLanguage: cfg.DefaultLanguage})
	s.admin = admin.New(admin.Config{
		Locale:          s.locale,
		DefaultLanguage: cfg.DefaultLanguage,
		Assets:          s.assets,
		Imports:         s.imports,
		UploadMax:       cfg.UploadMaxDuration,
		Imported:        cfg.Imported,
		Snapshots:       cfg.Snapshots,
		Collector:       cfg.Collector,
		Recheck:         cfg.Recheck,
		Store:           cfg.Store,
		Platforms:       s.platforms,
		Logger:          s.log,
		Sessions:        s.sessions,
		Clips:           s.search,
		Movies:          movieSearch,
	})
	s.platformsPayload = httpx.NewPayload(platformsJSON(s.platforms))

	return httpx.Stack{
		Log:         s.log,
		Errors:      s.writeError,
		Guard:       s.crossOrigin,
		ReadTimeout: cfg.ReadTimeout,
	}.Handler(s.routes())
}

// crossOrigin refuses cross-origin browser requests that change state,
// unless they are an API token's requests to the JSON API: a well-formed
// Bearer token and no cookie. The console's forms (/admin/login
// included) are always checked.
func (s *server) crossOrigin(routes http.Handler) http.Handler {
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, catalog.Errorf(catalog.EFORBIDDEN, "cross-origin request refused"))
	}))
	protected := csrf.Handler(routes)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && auth.TokenOnly(r) {
			routes.ServeHTTP(w, r) // no cookie: nothing a forger could borrow
			return
		}
		protected.ServeHTTP(w, r)
	})
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
