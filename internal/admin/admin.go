// Package admin is the administrators' side of the clip service (contract
// 5 and 8): the login form with its failed-login throttling, and the
// console: clips and movies listed, searched, added, edited and deleted,
// imports, the movie snapshot panel and API tokens. Sessions themselves
// (cookie, token, lifetimes) live in internal/auth, which the JSON API
// shares; the page toolkit (layout, static files, headers, error page,
// list filter and pager) in internal/html, which the public pages share.
// The routes are in routes.go; internal/cli mounts them.
package admin

import (
	"context"
	"embed"
	"log/slog"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/html"
	"catalog/internal/importer"
	"catalog/internal/locale"
	"catalog/internal/search"
	"catalog/internal/snapshot"
)

// maxFormBytes bounds the login form, far above any real credentials.
const maxFormBytes = 16 << 10

// dummyHash is compared against when the username does not exist, so
// that a wrong username costs as much time as a wrong password and
// response times do not reveal which usernames exist. Same cost as the
// hashes the CLI writes (bcrypt.DefaultCost).
const dummyHash = "$2a$10$.pzrp1ofMdk5Cfmm1EDEb.LWK17APebDYbLrmtviq5GfvveZ8Zmei"

//go:embed templates/*.html
var templateFS embed.FS

// Store is what the admin pages need from the database.
type Store interface {
	catalog.AdminStore
	catalog.ClipStore
	catalog.MovieStore
	catalog.TokenStore
	catalog.SourceStore
	// The Dead links page (contract 13).
	DeadLinks(ctx context.Context, limit int) ([]catalog.LinkServer, error)
	ReportLink(ctx context.Context, movieID int64) error
	// The local categories, which binding a source's type may move
	// movies between (contract 10).
	VodTypes(ctx context.Context) ([]catalog.VodType, error)
}

// Config configures New.
type Config struct {
	Store     Store
	Platforms *catalog.Platforms
	Logger    *slog.Logger
	// Assets are the static files the pages link; nil loads them (the
	// clip service passes the one copy it serves).
	Assets *html.Assets
	// Sessions are the administrators' sessions, shared with the JSON
	// API; nil keeps them in Store with a cookie Secure on TLS only.
	Sessions *auth.Sessions
	// Imports is shared with the import API, so that one upload runs at
	// a time in the process; nil gives the console a slot of its own.
	Imports *importer.Slot
	// UploadMax bounds one upload of the import form (0:
	// httpx.DefaultUploadMaxDuration), as it does the import API's.
	UploadMax time.Duration
	// Snapshots, when set, is the movie snapshot the console's panel
	// shows and rebuilds.
	Snapshots *snapshot.Service
	// Imported, when set, hears of every upload's import (metrics).
	Imported importer.Observer
	// Collector, when set, runs the Sources page's "Collect now" and
	// reports the run in progress.
	Collector *collect.Runner
	// Recheck, when set, wakes the link prober after the Dead links
	// page's "Check again" moved a movie to the front of its queue.
	Recheck func()
	// Clips and Movies are the indexes the lists are read from, as the
	// API's are (internal/search).
	Clips, Movies *search.Live
	// Locale is the console's message catalog; nil loads it.
	Locale *locale.Catalog
	// DefaultLanguage is the language of an administrator who saved
	// none and whose browser asks for none of the catalog's; "" is
	// English.
	DefaultLanguage string
}

// Service serves the admin pages, with its Config (defaults filled in
// by New).
type Service struct {
	Config
	views *html.Views
	// checkPassword compares a stored hash with a password:
	// bcrypt.CompareHashAndPassword, which tests wrap to count the
	// checks that guesses reach.
	checkPassword func(hash, password []byte) error
}

// New parses the embedded templates once; a broken template is a
// programming error and panics at start rather than on first use.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Imports == nil {
		cfg.Imports = new(importer.Slot)
	}
	if cfg.Assets == nil {
		cfg.Assets = html.NewAssets()
	}
	if cfg.Sessions == nil {
		cfg.Sessions = auth.NewSessions(cfg.Store, cfg.Logger, false)
	}
	if cfg.Locale == nil {
		cfg.Locale = locale.New()
	}
	return &Service{
		Config:        cfg,
		views:         html.NewViews(cfg.Assets, cfg.Locale, cfg.Logger, templateFS, "templates"),
		checkPassword: bcrypt.CompareHashAndPassword,
	}
}
