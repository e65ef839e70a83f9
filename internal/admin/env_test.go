package admin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/apitest"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/storetest"
	"catalog/internal/testdb"
)

// The login, session and dashboard tests drive the whole clip service
// in process (no listener), so that a request can come from any client
// address the throttle sees. console_test.go drives it over a real
// listener instead.

const (
	testUser     = "admin"
	testPassword = "correct horse battery staple"
	// validClip is a create body the JSON API accepts: a session's
	// cookie works there too (contract 5).
	validClip = `{"title":"Sunset over the bay","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"}`
)

// env is one clip service on a fresh store.
type env struct {
	t       testing.TB
	store   catalog.Store
	handler http.Handler
}

func newEnv(t testing.TB, configure ...func(*cli.ServiceDeps)) *env {
	t.Helper()
	store := testdb.Open(t)
	// Warnings and errors (a 500's cause) show up with a failing test.
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Version: "test-1", Logger: logger}
	for _, f := range configure {
		f(&cfg)
	}
	return &env{t: t, store: store, handler: cli.ClipService(cfg)}
}

// request describes one call; zero fields mean "not sent".
type request struct {
	method, target, body string
	headers              map[string]string
	cookie               *http.Cookie
	remote               string
}

func (e *env) do(rq request) *httptest.ResponseRecorder {
	e.t.Helper()
	return apitest.Serve(e.t, e.handler, apitest.Request{Method: rq.method, Target: rq.target, Body: rq.body,
		Headers: rq.headers, Cookie: rq.cookie, Remote: rq.remote})
}

func (e *env) get(target string) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.do(request{target: target})
}

// createClipAPI posts validClip to the JSON API with cookie and returns
// the status.
func (e *env) createClipAPI(cookie *http.Cookie) int {
	e.t.Helper()
	return e.do(request{method: http.MethodPost, target: "/api/clips", body: validClip, cookie: cookie,
		headers: map[string]string{"Content-Type": "application/json"}}).Code
}

// createAdmin stores an administrator with a cheap bcrypt hash.
func (e *env) createAdmin(username, password string) catalog.Admin {
	e.t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		e.t.Fatal(err)
	}
	a := catalog.Admin{Username: username, PasswordHash: string(hash)}
	if err := e.store.CreateAdmin(context.Background(), &a); err != nil {
		e.t.Fatalf("create admin: %v", err)
	}
	return a
}

func loginForm(username, password string) request {
	return request{
		method:  http.MethodPost,
		target:  "/admin/login",
		body:    url.Values{"username": {username}, "password": {password}}.Encode(),
		headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
	}
}

// login creates the test administrator (once) and logs in through the
// form, returning the session cookie.
func (e *env) login() *http.Cookie {
	e.t.Helper()
	if _, err := e.store.AdminByUsername(context.Background(), testUser); err != nil {
		e.createAdmin(testUser, testPassword)
	}
	w := e.do(loginForm(testUser, testPassword))
	if w.Code != http.StatusSeeOther {
		e.t.Fatalf("login: got status %d, want 303; body %s", w.Code, w.Body)
	}
	c := sessionCookie(w)
	if c == nil || c.Value == "" {
		e.t.Fatalf("login: no session cookie in %q", w.Header().Values("Set-Cookie"))
	}
	return c
}

// sessionCookie is the contract's cookie name as a literal, not
// auth.CookieName.
func sessionCookie(w *httptest.ResponseRecorder) *http.Cookie {
	for _, c := range w.Result().Cookies() {
		if c.Name == "catalog_session" {
			return c
		}
	}
	return nil
}

// tokenHash is the stored form of a session token (contract 5: its
// SHA-256 in hex), computed here rather than by the code under test.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// addClip stores a clip directly.
func (e *env) addClip(c catalog.Clip) {
	e.t.Helper()
	if c.IframeURL == "" {
		c.IframeURL = "https://player.example/v/1"
	}
	if err := e.store.CreateClip(context.Background(), &c); err != nil {
		e.t.Fatalf("create clip: %v", err)
	}
}

// clips are the stored clips, newest first.
func (e *env) clips() []catalog.Clip {
	e.t.Helper()
	clips, _ := storetest.Clips(e.t, e.store, catalog.ClipFilter{Paging: catalog.Paging{Page: 1, Limit: 100}})
	return clips
}
