// Package web is the public side of the clip service in HTML: the grid
// of clips at / and one page per clip at /clips/{id}. Their layout,
// static files, headers and error page come from the toolkit in
// internal/html, which the admin console shares; the routes are in
// routes.go, mounted by internal/cli. Clip pages carry a Content-Security-Policy that
// frames only the known players (headers.go).
package web

import (
	"embed"
	"log/slog"
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/locale"
	"catalog/internal/search"
)

//go:embed templates/*.html
var templateFS embed.FS

// Config configures New.
type Config struct {
	Store catalog.ClipStore
	// Search is the clips' index, the read model of the grid (as of
	// GET /api/clips).
	Search    *search.Live
	Platforms *catalog.Platforms
	Logger    *slog.Logger // nil: discard
	// Assets are the static files the pages link; nil loads them (the
	// clip service passes the one copy it serves).
	Assets *html.Assets
	// Locale is the pages' message catalog; nil loads it.
	Locale *locale.Catalog
	// DefaultLanguage is the language of a visitor whose browser asks
	// for none of the catalog's (serve --default-language); "" is
	// English.
	DefaultLanguage string
}

// Pages serves the public HTML pages, with their Config (defaults
// filled in by New).
type Pages struct {
	Config
	views *html.Views
}

// New parses the templates once; a broken template panics at start
// rather than on a visitor's request.
func New(cfg Config) *Pages {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Assets == nil {
		cfg.Assets = html.NewAssets()
	}
	if cfg.Locale == nil {
		cfg.Locale = locale.New()
	}
	return &Pages{Config: cfg, views: html.NewViews(cfg.Assets, cfg.Locale, cfg.Logger, templateFS, "templates")}
}

// language is the language of a visitor's page: the switcher's
// cookie, Accept-Language, then the default (locale.Catalog.Pick).
func (p *Pages) language(r *http.Request) *locale.Localizer {
	return p.views.Catalog().Pick(r, p.DefaultLanguage)
}

// render writes a public page. Pages revalidate on every visit (cheap
// with the ETag) so that a clip an administrator just changed shows at
// once; error pages are not stored.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name string, data any, frameSrc ...string) {
	cache := "no-store"
	if status == http.StatusOK {
		cache = "no-cache"
	}
	p.views.Write(w, r, status, cache, p.language(r), name, data, frameSrc...)
}

// fail shows err as a friendly page with its status. Internal errors are
// logged and their text never reaches the visitor.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpx.LogError(p.Logger, r, err)
	l := p.language(r)
	page := struct{ html.ErrorPage }{html.NewErrorPage(l, err, "/", l.T("web.back_to_all"))}
	p.render(w, r, page.Status, "error", page)
}
