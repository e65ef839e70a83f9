// Package admin is the administrators' side of the clip service (contract
// 5): the login form, database-backed sessions, failed-login throttling
// and the admin console: clips listed, searched, added, edited and
// deleted, and the movie catalog read-only.
package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/importer"
	"catalog/internal/snapshot"
	"catalog/internal/web"
)

// CookieName is the session cookie (contract 5).
const CookieName = "catalog_session"

const (
	// tokenBytes is the size of a session token: 256 random bits.
	tokenBytes = 32
	// touchEvery bounds how often a session's last use is written, so
	// that a busy administrator does not cost one write per request.
	touchEvery = time.Minute
	// maxFormBytes bounds the login form, far above any real credentials.
	maxFormBytes = 16 << 10
)

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
}

// Config configures New.
type Config struct {
	Store     Store
	Platforms *catalog.Platforms
	Logger    *slog.Logger
	// CookieSecure marks the session cookie Secure even on plain-HTTP
	// requests (behind a TLS-terminating proxy).
	CookieSecure bool
	// Imports is shared with the import API, so that one upload runs at
	// a time in the process; nil gives the console a slot of its own.
	Imports *importer.Slot
	// Snapshots, when set, is the movie snapshot the console's panel
	// shows and rebuilds.
	Snapshots *snapshot.Service
	// Imported, when set, hears of every upload's import (metrics).
	Imported importer.Observer
}

// Service serves the admin pages and authenticates API requests.
type Service struct {
	store        Store
	platforms    *catalog.Platforms
	log          *slog.Logger
	cookieSecure bool
	views        *web.Views
	// checkPassword compares a stored hash with a password:
	// bcrypt.CompareHashAndPassword, which tests wrap to count the
	// checks that guesses reach.
	checkPassword func(hash, password []byte) error
	imports       *importer.Slot
	snapshots     *snapshot.Service
	imported      importer.Observer
}

// New parses the embedded templates once; a broken template is a
// programming error and panics at start rather than on first use.
func New(cfg Config) *Service {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	imports := cfg.Imports
	if imports == nil {
		imports = new(importer.Slot)
	}
	return &Service{
		store:         cfg.Store,
		platforms:     cfg.Platforms,
		log:           log,
		cookieSecure:  cfg.CookieSecure,
		views:         web.NewViews(web.NewAssets(), templateFS, "templates"),
		checkPassword: bcrypt.CompareHashAndPassword,
		imports:       imports,
		snapshots:     cfg.Snapshots,
		imported:      cfg.Imported,
	}
}

func notLoggedIn() error {
	return catalog.Errorf(catalog.EUNAUTHORIZED, "log in as an administrator first (/admin/login)")
}

// Authenticate returns the session of the request's cookie. A missing,
// unknown or expired session is EUNAUTHORIZED; a valid one is marked as
// used (at most once per touchEvery).
func (s *Service) Authenticate(r *http.Request) (catalog.Session, error) {
	hash, ok := cookieTokenHash(r)
	if !ok {
		return catalog.Session{}, notLoggedIn()
	}
	ctx := r.Context()
	sess, err := s.store.SessionByTokenHash(ctx, hash)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return catalog.Session{}, notLoggedIn()
	}
	if err != nil {
		return catalog.Session{}, fmt.Errorf("load session: %w", err)
	}
	now := time.Now()
	if sess.Expired(now) {
		if err := s.store.DeleteSession(ctx, hash); err != nil {
			s.log.Warn("delete expired session", "err", err)
		}
		return catalog.Session{}, catalog.Errorf(catalog.EUNAUTHORIZED, "session expired: log in again (/admin/login)")
	}
	if now.Sub(sess.LastSeen) >= touchEvery {
		// A failed touch only shortens the idle lifetime; the request
		// itself is still authenticated.
		if err := s.store.TouchSession(ctx, hash, now); err != nil {
			s.log.Warn("touch session", "err", err)
		} else {
			sess.LastSeen = now
		}
	}
	return sess, nil
}

// startSession creates a session for admin and sets its cookie.
func (s *Service) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, adminID int64, now time.Time) error {
	raw := make([]byte, tokenBytes)
	rand.Read(raw) // never fails (crypto/rand documents it)
	token := hex.EncodeToString(raw)
	err := s.store.CreateSession(ctx, catalog.Session{
		TokenHash: hashToken(token),
		AdminID:   adminID,
		CreatedAt: now.UTC(),
		LastSeen:  now.UTC(),
	})
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	http.SetCookie(w, s.cookie(r, token, int(catalog.SessionAbsolute/time.Second)))
	return nil
}

// cookie builds the session cookie; maxAge < 0 deletes it.
func (s *Service) cookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     CookieName,
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   r.TLS != nil || s.cookieSecure,
		SameSite: http.SameSiteLaxMode,
	}
}

// cookieTokenHash returns the stored form of the request's session
// token. Malformed tokens are rejected here without a database lookup.
func cookieTokenHash(r *http.Request) (string, bool) {
	c, err := r.Cookie(CookieName)
	if err != nil || len(c.Value) != 2*tokenBytes {
		return "", false
	}
	if _, err := hex.DecodeString(c.Value); err != nil {
		return "", false
	}
	return hashToken(c.Value), true
}

// hashToken is the only form of a token the database sees, so a leaked
// database does not hand out live sessions.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
