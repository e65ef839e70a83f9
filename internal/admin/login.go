package admin

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"catalog/internal/auth"
	"catalog/internal/catalog"
)

type loginPage struct {
	chrome
	Username string
	Message  string
}

// LoginPage answers GET /admin/login with the form.
func (s *Service) LoginPage(w http.ResponseWriter, r *http.Request) {
	s.loginForm(w, r, http.StatusOK, "", "")
}

// loginForm shows the login form with status, the username typed and
// the message id (with its args), "" for none.
func (s *Service) loginForm(w http.ResponseWriter, r *http.Request, status int, username, id string, args ...any) {
	p := loginPage{chrome: s.chrome(r, catalog.Session{}, ""), Username: username}
	if id != "" {
		p.Message = p.l.T(id, args...)
	}
	s.render(w, r, status, "login", p)
}

// refuseLogin answers an attempt that ReserveLogin refused: 429 with
// the form when the limits hold it (ETOOMANY), else the failure.
func (s *Service) refuseLogin(w http.ResponseWriter, r *http.Request, username, addr string, err error) {
	if catalog.ErrorCode(err) != catalog.ETOOMANY {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	s.Logger.Info("login throttled", "addr", addr, "reason", catalog.ErrorMessage(err))
	w.Header().Set("Retry-After", strconv.Itoa(int(catalog.LoginWindow/time.Second)))
	s.loginForm(w, r, http.StatusTooManyRequests, username, "login.throttled", "Count", int(catalog.LoginWindow/time.Minute))
}

// Login answers POST /admin/login (form fields username, password).
// Every attempt is counted as a failure before its password is checked
// (contract 5), so parallel guesses get no more checks than the limits
// allow; a throttled attempt is refused without a check. Wrong
// credentials show the form again with one message for both cases.
func (s *Service) Login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.loginForm(w, r, http.StatusBadRequest, "", "login.unreadable")
		return
	}
	username := strings.TrimSpace(r.PostForm.Get("username"))
	password := r.PostForm.Get("password")
	ctx := r.Context()
	now := time.Now()
	addr := clientAddr(r)
	wrong := func() { s.loginForm(w, r, http.StatusUnauthorized, username, "login.wrong") }

	// No administrator has a longer name (admin create refuses it), so
	// the attempt fails without a password check and nothing is stored.
	if catalog.CheckLoginUsername(username) != nil {
		username = ""
		wrong()
		return
	}
	if err := s.Store.ReserveLogin(ctx, username, addr, now); err != nil {
		s.refuseLogin(w, r, username, addr, err)
		return
	}

	admin, err := s.Store.AdminByUsername(ctx, username)
	found := err == nil
	if err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	hash := admin.PasswordHash
	if !found {
		hash = dummyHash
	}
	// The reserved attempt stays counted as a failure.
	if s.checkPassword([]byte(hash), []byte(password)) != nil || !found {
		wrong()
		return
	}

	if err := s.Store.LoginSucceeded(ctx, username, addr, now); err != nil {
		// The login itself is good; only the pair's count stays, and
		// the address is not yet known for the per-username limit.
		s.Logger.Warn("record successful login", "err", err)
	}
	if err := s.Sessions.Start(ctx, w, r, admin.ID, now); err != nil {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	s.Logger.Info("admin logged in", "username", admin.Username)
	redirect(w, r, "/admin")
}

// Logout answers POST /admin/logout: the session is deleted in the
// database and the cookie cleared.
func (s *Service) Logout(w http.ResponseWriter, r *http.Request) {
	if err := s.Sessions.End(w, r); err != nil {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	redirect(w, r, "/admin/login")
}

// clientAddr is the peer address without its port as login throttling
// counts it (auth.ThrottleKey: an IPv6 client by its /64): the
// connection's, or the client's when internal/cli has taken it from
// X-Forwarded-For of a --trusted-proxies peer. Behind a proxy that is
// not trusted all clients share the proxy's address, which then
// throttles as one.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return auth.ThrottleKey(r.RemoteAddr)
	}
	return auth.ThrottleKey(host)
}
