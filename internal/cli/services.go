package cli

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"catalog/internal/admin"
	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/clipapi"
	"catalog/internal/collect"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/importer"
	"catalog/internal/locale"
	"catalog/internal/metrics"
	"catalog/internal/movieapi"
	"catalog/internal/search"
	"catalog/internal/snapshot"
	"catalog/internal/web"
)

// Each service is assembled in one function below, its middleware listed
// outermost first; nothing else wraps a service or mounts a route. serve
// builds both with ServiceDeps from its flags; the HTTP tests build them
// the same way.

// ServiceDeps is what both services are assembled from. Store and the
// index of each service (ClipSearch, MovieSearch), started by the
// caller, are required; the rest may be left zero.
type ServiceDeps struct {
	Store     catalog.Store
	Platforms *catalog.Platforms // nil: catalog.DefaultPlatforms()
	Logger    *slog.Logger       // nil: discard
	Version   string
	// ClipSearch and MovieSearch are the indexes (internal/search), the
	// read model of every list; the clip service's console lists movies
	// too. Whoever builds a service starts them.
	ClipSearch, MovieSearch *search.Live
	// Metrics, when set, counts every request (the outermost layer) and
	// the response caches' hits.
	Metrics *metrics.Registry
	// Proxies are the trusted proxies whose X-Forwarded-For names the
	// client (--trusted-proxies).
	Proxies []netip.Prefix
	// ReadTimeout is the deadline of every GET and HEAD (0:
	// httpx.DefaultReadTimeout).
	ReadTimeout time.Duration
	// DefaultLanguage is the pages' language for a browser that asks
	// for none of the catalog's; "" is English.
	DefaultLanguage string

	// The clip service's console and import API.
	CookieSecure      bool              // the session cookie is Secure on plain HTTP too
	UploadMaxDuration time.Duration     // one import upload (0: httpx.DefaultUploadMaxDuration)
	Imported          importer.Observer // hears of every import (metrics)
	Snapshots         *snapshot.Service // the console's panel; the movie service serves it
	Collector         *collect.Runner   // the console's "Collect now"
	Recheck           func()            // wakes the link prober (the Dead links page)

	// Reported, when set, hears of every failure report of the movie
	// service that counted.
	Reported func()
	// Hits adds up the movie service's hits (internal/hits), which the
	// caller writes (serve builds and runs the one counter); nil: the
	// beacon answers and counts nothing (movieapi.Config.Hits).
	Hits movieapi.HitCounter
}

// layer is one middleware: it returns next wrapped.
type layer func(next http.Handler) http.Handler

// stack wraps routes in layers, the first outermost.
func stack(routes http.Handler, layers ...layer) http.Handler {
	h := routes
	for i := len(layers) - 1; i >= 0; i-- {
		h = layers[i](h)
	}
	return h
}

// ClipService assembles the clip service: its JSON API (clipapi), the
// console (admin), the public pages (web) and their static files (html)
// on one route table, under these layers, outermost first:
//
//  1. metrics: the request count and duration by route;
//  2. the client's address behind trusted proxies;
//  3. httpx.Common: nosniff, request id, panic recovery, request log;
//  4. crossOrigin: a browser's cross-origin write refused before any
//     route runs;
//  5. httpx.ReadDeadline: every read's --read-timeout.
//
// Read routes set their own headers (clipapi's read policy, the pages'
// and the console's).
func ClipService(d ServiceDeps) http.Handler {
	if d.ClipSearch == nil || d.MovieSearch == nil {
		panic("cli.ClipService: ClipSearch and MovieSearch are required, started by the caller")
	}
	d = d.withDefaults()
	log := d.Logger.With("service", "clips")
	sessions := auth.NewSessions(d.Store, log, d.CookieSecure)
	imports := new(importer.Slot) // one upload at a time, through the API or the console
	assets, loc := html.NewAssets(), locale.New()
	api := clipapi.New(clipapi.Config{Store: d.Store, Platforms: d.Platforms, Logger: log, Version: d.Version,
		Search: d.ClipSearch, Sessions: sessions, Imports: imports, CacheStats: d.Metrics.Cache("clips"),
		Imported: d.Imported, UploadMaxDuration: d.UploadMaxDuration, Locale: loc, DefaultLanguage: d.DefaultLanguage})
	console := admin.New(admin.Config{Store: d.Store, Platforms: d.Platforms, Logger: log, Assets: assets,
		Sessions: sessions, Imports: imports, UploadMax: d.UploadMaxDuration, Snapshots: d.Snapshots, Imported: d.Imported,
		Collector: d.Collector, Recheck: d.Recheck, Clips: d.ClipSearch, Movies: d.MovieSearch,
		Locale: loc, DefaultLanguage: d.DefaultLanguage})
	pages := web.New(web.Config{Store: d.Store, Search: d.ClipSearch, Platforms: d.Platforms, Logger: log,
		Assets: assets, Locale: loc, DefaultLanguage: d.DefaultLanguage})

	rt := httpx.NewRouter(api.WriteError)
	api.Mount(rt)
	console.Mount(rt)
	pages.Mount(rt)
	// GET /static/{name}.{hash}.{ext}: one route per embedded file, under
	// its content-hashed name, so that any other /static/ path gets the
	// service's 404.
	for _, f := range assets.Files() {
		rt.Handle("GET", f.URL, f)
	}
	return stack(rt,
		func(h http.Handler) http.Handler { return d.Metrics.Service("clips", loginRoute, h) },
		func(h http.Handler) http.Handler { return httpx.BehindProxies(h, d.Proxies) },
		func(h http.Handler) http.Handler { return httpx.Common(h, log, api.WriteError) },
		func(h http.Handler) http.Handler { return crossOrigin(h, api.WriteError) },
		func(h http.Handler) http.Handler { return httpx.ReadDeadline(h, d.ReadTimeout) },
	)
}

// MovieService assembles the movie service: its API (movieapi) under
// these layers, outermost first:
//
//  1. metrics: the request count and duration by route;
//  2. the client's address behind trusted proxies;
//  3. httpx.Common: nosniff, request id, panic recovery, request log;
//  4. httpx.ReadDeadline: every read's --read-timeout but the
//     snapshot's, which streams a file rather than database work;
//  5. movieapi.Headers: CORS, Cache-Control and the surrogate key of
//     every answer (contract 4.5).
func MovieService(d ServiceDeps) http.Handler {
	if d.MovieSearch == nil {
		panic("cli.MovieService: MovieSearch is required, started by the caller")
	}
	d = d.withDefaults()
	log := d.Logger.With("service", "movies")
	api := movieapi.New(movieapi.Config{Store: d.Store, Snapshots: d.Snapshots, Logger: log, Version: d.Version,
		CacheStats: d.Metrics.Cache("movies"), Reported: d.Reported, Hits: d.Hits, Search: d.MovieSearch, DefaultLanguage: d.DefaultLanguage})
	rt := httpx.NewRouter(api.WriteError)
	api.Mount(rt)
	return stack(rt,
		func(h http.Handler) http.Handler { return d.Metrics.Service("movies", "", h) },
		func(h http.Handler) http.Handler { return httpx.BehindProxies(h, d.Proxies) },
		func(h http.Handler) http.Handler { return httpx.Common(h, log, api.WriteError) },
		func(h http.Handler) http.Handler { return httpx.ReadDeadline(h, d.ReadTimeout, movieapi.SnapshotPath) },
		movieapi.Headers,
	)
}

func (d ServiceDeps) withDefaults() ServiceDeps {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Platforms == nil {
		p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
		if err != nil {
			panic(err) // the built-in list is valid
		}
		d.Platforms = p
	}
	return d
}

// crossOrigin refuses cross-origin browser requests that change state
// (contract 8), unless they are an API token's requests to the JSON
// API: a well-formed Bearer token and no cookie. The console's forms
// (/admin/login included) are always checked.
func crossOrigin(routes http.Handler, writeErr httpx.ErrorWriter) http.Handler {
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeErr(w, r, catalog.Errorf(catalog.EFORBIDDEN, "cross-origin request refused"))
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
