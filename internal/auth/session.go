package auth

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"catalog/internal/catalog"
)

// CookieName is the session cookie (contract 5).
const CookieName = "catalog_session"

// sessionTokenBytes is the size of a session token: 256 random bits.
const sessionTokenBytes = 32

// Sessions are the administrators' browser sessions (contract 5): a
// random token in an HttpOnly cookie, stored only as its hash (Hash) in
// the database, so that every instance sharing the database sees a
// logout at once. The admin console logs in and out through them; the
// JSON API and the console pages both authenticate by them.
type Sessions struct {
	store  catalog.AdminStore
	log    *slog.Logger
	secure bool
}

// NewSessions returns the sessions kept in store. secure marks the
// cookie Secure even on plain-HTTP requests (behind a TLS-terminating
// proxy); log may be nil.
func NewSessions(store catalog.AdminStore, log *slog.Logger, secure bool) *Sessions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Sessions{store: store, log: log, secure: secure}
}

func notLoggedIn() error {
	return catalog.Errorf(catalog.EUNAUTHORIZED, "log in as an administrator first (/admin/login)")
}

// Authenticate returns the session of the request's cookie. A missing,
// unknown or expired session is EUNAUTHORIZED; a valid one is marked as
// used (at most once per touchEvery).
func (s *Sessions) Authenticate(r *http.Request) (catalog.Session, error) {
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

// Start begins a session for the administrator adminID, who has just
// given the right password, and sets its cookie. A new token on every
// login: the session the request's cookie names, if any, is deleted
// first, so that a token planted before login (session fixation) never
// becomes an authenticated session. Expired sessions are swept on the
// way.
func (s *Sessions) Start(ctx context.Context, w http.ResponseWriter, r *http.Request, adminID int64, now time.Time) error {
	if old, ok := cookieTokenHash(r); ok {
		if err := s.store.DeleteSession(ctx, old); err != nil {
			return err
		}
	}
	if err := s.store.DeleteExpiredSessions(ctx, now); err != nil {
		s.log.Warn("delete expired sessions", "err", err)
	}
	token := hex.EncodeToString(randomBytes(sessionTokenBytes))
	err := s.store.CreateSession(ctx, catalog.Session{
		TokenHash: Hash(token),
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

// End deletes the request's session in the database and clears its
// cookie (logout). A session already gone is no error; on any other
// error the cookie is left alone.
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) error {
	if hash, ok := cookieTokenHash(r); ok {
		if err := s.store.DeleteSession(r.Context(), hash); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
			return err
		}
	}
	http.SetCookie(w, s.cookie(r, "", -1))
	return nil
}

// cookie builds the session cookie; maxAge < 0 deletes it.
func (s *Sessions) cookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     CookieName,
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   r.TLS != nil || s.secure,
		SameSite: http.SameSiteLaxMode,
	}
}

// cookieTokenHash returns the stored form of the request's session
// token. Malformed tokens are rejected here without a database lookup.
func cookieTokenHash(r *http.Request) (string, bool) {
	c, err := r.Cookie(CookieName)
	if err != nil || len(c.Value) != 2*sessionTokenBytes {
		return "", false
	}
	if _, err := hex.DecodeString(c.Value); err != nil {
		return "", false
	}
	return Hash(c.Value), true
}
