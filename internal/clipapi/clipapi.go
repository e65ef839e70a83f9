// Package clipapi is the clip service's JSON API (contract 3, 5 and 8):
// clips, platforms, the import API, health and the OpenAPI document,
// every route listed in routes.go. Requests authenticate through
// internal/auth, by API token or by the console's session cookie. The
// service around it (middleware, the console, the public pages, the
// static files) is assembled in internal/cli (services.go).
package clipapi

import (
	"log/slog"
	"time"

	"catalog/internal/auth"
	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/importer"
	"catalog/internal/locale"
	"catalog/internal/search"
)

// Config configures New.
type Config struct {
	Store     catalog.Store
	Platforms *catalog.Platforms // nil: catalog.DefaultPlatforms()
	Logger    *slog.Logger       // nil: discard
	Version   string
	// Search is the clips' index (internal/search), the read model of
	// every list, started by the caller; required.
	Search *search.Live
	// Sessions are the console's sessions, whose cookie the API takes
	// as well as a token; required.
	Sessions *auth.Sessions
	// Imports is the one import slot of the process, shared with the
	// console; required.
	Imports *importer.Slot
	// CacheStats, when set, counts the response cache's hits and misses.
	CacheStats *cache.Stats
	// Imported, when set, hears of every import, for metrics.
	Imported importer.Observer
	// UploadMaxDuration bounds one import upload (0:
	// httpx.DefaultUploadMaxDuration).
	UploadMaxDuration time.Duration
	// Locale and DefaultLanguage are the API reference page's messages
	// and its language for a browser that asks for none of them.
	Locale          *locale.Catalog
	DefaultLanguage string
}

// API holds the dependencies of the clip handlers.
type API struct {
	store     catalog.Store
	platforms *catalog.Platforms
	log       *slog.Logger
	version   string
	sessions  *auth.Sessions
	tokens    *auth.Tokens
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
	// locale is the reference page's messages, lang its default language.
	locale *locale.Catalog
	lang   string
}

// New returns the clip API; Mount lists its routes.
func New(cfg Config) *API {
	if cfg.Search == nil || cfg.Sessions == nil || cfg.Imports == nil {
		panic("clipapi: Search, Sessions and Imports are required")
	}
	s := &API{
		store:     cfg.Store,
		platforms: cfg.Platforms,
		log:       cfg.Logger,
		version:   cfg.Version,
		search:    cfg.Search,
		sessions:  cfg.Sessions,
		imports:   cfg.Imports,
		imported:  cfg.Imported,
		uploadMax: cfg.UploadMaxDuration,
		locale:    cfg.Locale,
		lang:      cfg.DefaultLanguage,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.locale == nil {
		s.locale = locale.New()
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
	s.tokens = auth.New(cfg.Store, s.log)
	s.platformsPayload = httpx.NewPayload(platformsJSON(s.platforms))
	return s
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
