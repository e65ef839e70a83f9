package admin

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
)

type loginPage struct {
	chrome
	Username string
	Message  string
}

// LoginPage answers GET /admin/login with the form.
func (s *Service) LoginPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "login", loginPage{})
}

// Login answers POST /admin/login (form fields username, password).
// Throttled clients are refused before any password check; wrong
// credentials show the form again with one message for both cases.
func (s *Service) Login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.render(w, r, http.StatusBadRequest, "login", loginPage{Message: "The form could not be read. Please try again."})
		return
	}
	username := strings.TrimSpace(r.PostForm.Get("username"))
	password := r.PostForm.Get("password")
	ctx := r.Context()
	now := time.Now()
	since := now.Add(-loginWindow)
	userKey, addrKey := "user:"+username, "addr:"+clientAddr(r)

	for _, key := range []string{userKey, addrKey} {
		n, err := s.store.LoginFailures(ctx, key, since)
		if err != nil {
			s.fail(w, r, catalog.Session{}, err)
			return
		}
		if n >= maxLoginFailures {
			w.Header().Set("Retry-After", strconv.Itoa(int(loginWindow/time.Second)))
			s.render(w, r, http.StatusTooManyRequests, "login", loginPage{
				Username: username,
				Message:  "Too many failed logins. Please wait " + strconv.Itoa(int(loginWindow/time.Minute)) + " minutes and try again.",
			})
			return
		}
	}

	admin, err := s.store.AdminByUsername(ctx, username)
	found := err == nil
	if err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	hash := admin.PasswordHash
	if !found {
		hash = dummyHash
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) != nil || !found {
		for _, key := range []string{userKey, addrKey} {
			if _, err := s.store.AddLoginFailure(ctx, key, now, since); err != nil {
				s.fail(w, r, catalog.Session{}, err)
				return
			}
		}
		s.render(w, r, http.StatusUnauthorized, "login", loginPage{
			Username: username,
			Message:  "Wrong username or password.",
		})
		return
	}

	if err := s.store.ClearLoginFailures(ctx, userKey); err != nil {
		s.log.Warn("clear login failures", "err", err)
	}
	// A new token on every login: a token planted before login
	// (session fixation) never becomes an authenticated session.
	if old, ok := cookieTokenHash(r); ok {
		if err := s.store.DeleteSession(ctx, old); err != nil {
			s.fail(w, r, catalog.Session{}, err)
			return
		}
	}
	if err := s.store.DeleteExpiredSessions(ctx, now); err != nil {
		s.log.Warn("delete expired sessions", "err", err)
	}
	if err := s.startSession(ctx, w, r, admin.ID, now); err != nil {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	s.log.Info("admin logged in", "username", admin.Username)
	redirect(w, r, "/admin")
}

// Logout answers POST /admin/logout: the session is deleted in the
// database and the cookie cleared.
func (s *Service) Logout(w http.ResponseWriter, r *http.Request) {
	if hash, ok := cookieTokenHash(r); ok {
		if err := s.store.DeleteSession(r.Context(), hash); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
			s.fail(w, r, catalog.Session{}, err)
			return
		}
	}
	http.SetCookie(w, s.cookie(r, "", -1))
	redirect(w, r, "/admin/login")
}

// clientAddr is the peer address without its port. Behind a proxy all
// clients share the proxy's address, which then throttles as one.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
