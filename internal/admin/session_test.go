package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
)

const wantCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; frame-src 'none'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// wantHTML checks the status and the headers every HTML page carries.
func wantHTML(t testing.TB, w interface {
	Result() *http.Response
}, status int) {
	t.Helper()
	res := w.Result()
	if res.StatusCode != status {
		t.Fatalf("got status %d, want %d", res.StatusCode, status)
	}
	want := map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Content-Security-Policy": wantCSP,
		"X-Frame-Options":         "DENY",
		"Cache-Control":           "no-store",
		"X-Content-Type-Options":  "nosniff",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s: got %q, want %q", k, got, v)
		}
	}
}

func TestLoginPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.get("/admin/login")
	wantHTML(t, w, http.StatusOK)
	body := w.Body.String()
	for _, want := range []string{`action="/admin/login"`, `method="post"`, `name="username"`, `name="password"`, `type="password"`} {
		if !strings.Contains(body, want) {
			t.Errorf("login page lacks %s", want)
		}
	}
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]|style=`).MatchString(body) {
		t.Errorf("login page has inline script or style, which the CSP forbids")
	}
	tag := w.Header().Get("ETag")
	if tag == "" {
		t.Fatalf("no ETag on GET /admin/login")
	}
	if w := e.do(request{target: "/admin/login", headers: map[string]string{"If-None-Match": tag}}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: got %d, want 304", w.Code)
	}

	// The one shared style sheet, under its content-hashed name.
	href := regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)">`).FindStringSubmatch(body)
	if href == nil {
		t.Fatalf("login page links no style sheet")
	}
	css := e.get(href[1])
	if css.Code != http.StatusOK || css.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("stylesheet: got %d %q", css.Code, css.Header().Get("Content-Type"))
	}
}

func TestLoginSuccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		cookieSecure bool
		target       string
		wantSecure   bool
	}{
		{"plain http", false, "/admin/login", false},
		{"cookie-secure flag", true, "/admin/login", true},
		{"tls request", false, "https://example.com/admin/login", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, func(c *cli.ServiceDeps) { c.CookieSecure = tt.cookieSecure })
			a := e.createAdmin(testUser, testPassword)
			rq := loginForm(testUser, testPassword)
			rq.target = tt.target
			w := e.do(rq)
			if w.Code != http.StatusSeeOther {
				t.Fatalf("got status %d, want 303; body %s", w.Code, w.Body)
			}
			if got := w.Header().Get("Location"); got != "/admin" {
				t.Errorf("Location: got %q, want /admin", got)
			}
			c := sessionCookie(w)
			if c == nil {
				t.Fatal("no session cookie")
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != tt.wantSecure {
				t.Errorf("cookie: got HttpOnly=%v SameSite=%v Path=%q Secure=%v, want true Lax / %v",
					c.HttpOnly, c.SameSite, c.Path, c.Secure, tt.wantSecure)
			}
			if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(c.Value) {
				t.Errorf("token %q is not 256 bits of hex", c.Value)
			}
			ctx := context.Background()
			sess, err := e.store.SessionByTokenHash(ctx, tokenHash(c.Value))
			if err != nil {
				t.Fatalf("session by hash of the token: %v", err)
			}
			if sess.AdminID != a.ID {
				t.Errorf("session admin: got %d, want %d", sess.AdminID, a.ID)
			}
			if _, err := e.store.SessionByTokenHash(ctx, c.Value); catalog.ErrorCode(err) != catalog.ENOTFOUND {
				t.Errorf("the raw token is stored (lookup err %v)", err)
			}
			// The cookie works on the API and the dashboard.
			if got := e.createClipAPI(c); got != http.StatusCreated {
				t.Errorf("POST with the new session: got %d, want 201", got)
			}
			if w := e.do(request{target: "/admin", cookie: c}); w.Code != http.StatusOK {
				t.Errorf("GET /admin with the new session: got %d, want 200", w.Code)
			}
		})
	}
}

func TestLoginFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.createAdmin(testUser, testPassword)
	tests := []struct{ name, username, password string }{
		{"wrong password", testUser, "wrong password here"},
		{"unknown user", "nobody", testPassword},
		{"empty", "", ""},
		{"case differs", testUser, strings.ToUpper(testPassword)},
	}
	var messages []string
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rq := loginForm(tt.username, tt.password)
			rq.remote = fmt.Sprintf("192.0.2.%d:1234", i+10)
			w := e.do(rq)
			wantHTML(t, w, http.StatusUnauthorized)
			if sessionCookie(w) != nil {
				t.Errorf("a failed login set a session cookie")
			}
			m := regexp.MustCompile(`role="alert">([^<]*)<`).FindStringSubmatch(w.Body.String())
			if m == nil {
				t.Fatalf("no message on the page")
			}
			messages = append(messages, m[1])
			if strings.Contains(w.Body.String(), tt.password) && tt.password != "" {
				t.Errorf("the page echoes the password")
			}
		})
	}
	for _, m := range messages[1:] {
		if m != messages[0] {
			t.Errorf("messages differ, revealing which part was wrong: %q vs %q", messages[0], m)
		}
	}
}

// The throttle through the whole clip service; login_test.go covers
// every limit of contract 5 on the login handler.
func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	t.Run("per username and address", func(t *testing.T) {
		e := newEnv(t)
		e.createAdmin(testUser, testPassword)
		for i := range 5 {
			rq := loginForm(testUser, "wrong")
			rq.remote = "198.51.100.7:5000"
			if w := e.do(rq); w.Code != http.StatusUnauthorized {
				t.Fatalf("failure %d: got %d, want 401", i+1, w.Code)
			}
		}
		// Even the right password from that address is not checked.
		rq := loginForm(testUser, testPassword)
		rq.remote = "198.51.100.7:5001"
		w := e.do(rq)
		wantHTML(t, w, http.StatusTooManyRequests)
		wantRetryAfter(t, w.Header().Get("Retry-After"))
		if sessionCookie(w) != nil {
			t.Errorf("a throttled login set a session cookie")
		}
		// Strangers cannot lock the administrator out: from another
		// address the login works.
		rq.remote = "203.0.113.9:5000"
		if w := e.do(rq); w.Code != http.StatusSeeOther {
			t.Errorf("from another address: got %d, want 303", w.Code)
		}
	})
	t.Run("per address", func(t *testing.T) {
		e := newEnv(t)
		e.createAdmin(testUser, testPassword)
		for i := range 20 {
			rq := loginForm(fmt.Sprintf("guess%d", i), "wrong")
			rq.remote = "198.51.100.7:4000"
			if w := e.do(rq); w.Code != http.StatusUnauthorized {
				t.Fatalf("failure %d: got %d, want 401", i+1, w.Code)
			}
		}
		rq := loginForm(testUser, testPassword)
		rq.remote = "198.51.100.7:4001"
		w := e.do(rq)
		wantHTML(t, w, http.StatusTooManyRequests)
		wantRetryAfter(t, w.Header().Get("Retry-After"))
		// The same user from elsewhere still logs in.
		rq.remote = "198.51.100.8:4001"
		if w := e.do(rq); w.Code != http.StatusSeeOther {
			t.Errorf("from another address: got %d, want 303", w.Code)
		}
	})
	t.Run("success clears its pair", func(t *testing.T) {
		e := newEnv(t)
		e.createAdmin(testUser, testPassword)
		for range 4 {
			rq := loginForm(testUser, "wrong")
			rq.remote = "198.51.100.1:1"
			e.do(rq)
		}
		rq := loginForm(testUser, testPassword)
		rq.remote = "198.51.100.1:1"
		if w := e.do(rq); w.Code != http.StatusSeeOther {
			t.Fatalf("login: got %d, want 303", w.Code)
		}
		for i := range 5 {
			rq := loginForm(testUser, "wrong")
			rq.remote = "198.51.100.1:1"
			if w := e.do(rq); w.Code != http.StatusUnauthorized {
				t.Fatalf("failure %d after success: got %d, want 401", i+1, w.Code)
			}
		}
	})
}

func wantRetryAfter(t testing.TB, v string) {
	t.Helper()
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Errorf("Retry-After: got %q, want a positive number of seconds", v)
	}
}

func TestLoginRenewsSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.login()
	rq := loginForm(testUser, testPassword)
	rq.cookie = first
	w := e.do(rq)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("second login: got %d, want 303", w.Code)
	}
	second := sessionCookie(w)
	if second == nil || second.Value == first.Value {
		t.Fatalf("second login kept the token %q", first.Value)
	}
	if got := e.createClipAPI(first); got != http.StatusUnauthorized {
		t.Errorf("old session: got %d, want 401", got)
	}
	if got := e.createClipAPI(second); got != http.StatusCreated {
		t.Errorf("new session: got %d, want 201", got)
	}

	// A planted token (fixation) never becomes a session.
	planted := &http.Cookie{Name: "catalog_session", Value: strings.Repeat("cd", 32)}
	rq.cookie = planted
	w = e.do(rq)
	if got := sessionCookie(w); got == nil || got.Value == planted.Value {
		t.Errorf("login kept a planted token")
	}
	if got := e.createClipAPI(planted); got != http.StatusUnauthorized {
		t.Errorf("planted token: got %d, want 401", got)
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cookie := e.login()
	w := e.do(request{method: "POST", target: "/admin/logout", cookie: cookie})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/admin/login" {
		t.Fatalf("got %d to %q, want 303 to /admin/login", w.Code, w.Header().Get("Location"))
	}
	if c := sessionCookie(w); c == nil || c.MaxAge >= 0 || c.Value != "" {
		t.Errorf("cookie not cleared: %+v", c)
	}
	if _, err := e.store.SessionByTokenHash(context.Background(), tokenHash(cookie.Value)); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("session still stored (err %v)", err)
	}
	if got := e.createClipAPI(cookie); got != http.StatusUnauthorized {
		t.Errorf("POST after logout: got %d, want 401", got)
	}
	if w := e.do(request{target: "/admin", cookie: cookie}); w.Code != http.StatusSeeOther {
		t.Errorf("GET /admin after logout: got %d, want 303", w.Code)
	}
	// Logging out without a session is harmless.
	if w := e.do(request{method: "POST", target: "/admin/logout"}); w.Code != http.StatusSeeOther {
		t.Errorf("anonymous logout: got %d, want 303", w.Code)
	}
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.createAdmin(testUser, testPassword)
	now := time.Now().UTC().Truncate(time.Second)
	tests := []struct {
		name              string
		created, lastSeen time.Time
		valid             bool
	}{
		{"fresh", now.Add(-time.Hour), now.Add(-10 * time.Second), true},
		{"idle too long", now.Add(-13 * time.Hour), now.Add(-catalog.SessionIdle - time.Minute), false},
		{"too old though active", now.Add(-catalog.SessionAbsolute - time.Minute), now.Add(-time.Minute), false},
	}
	ctx := context.Background()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := fmt.Sprintf("%064x", i+1)
			err := e.store.CreateSession(ctx, catalog.Session{TokenHash: tokenHash(token), AdminID: a.ID, CreatedAt: tt.created, LastSeen: tt.lastSeen})
			if err != nil {
				t.Fatal(err)
			}
			cookie := &http.Cookie{Name: "catalog_session", Value: token}
			api := e.createClipAPI(cookie)
			page := e.do(request{target: "/admin", cookie: cookie})
			if tt.valid {
				if api != http.StatusCreated || page.Code != http.StatusOK {
					t.Errorf("got %d and %d, want 201 and 200", api, page.Code)
				}
				return
			}
			if api != http.StatusUnauthorized {
				t.Errorf("POST /api/clips: got %d, want 401", api)
			}
			if page.Code != http.StatusSeeOther || page.Header().Get("Location") != "/admin/login" {
				t.Errorf("GET /admin: got %d to %q, want 303 to /admin/login", page.Code, page.Header().Get("Location"))
			}
		})
	}
}

func TestSessionTouch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.createAdmin(testUser, testPassword)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	tests := []struct {
		name     string
		lastSeen time.Time
		touched  bool
	}{
		{"recent use is not written", now.Add(-5 * time.Second), false},
		{"older use is written", now.Add(-10 * time.Minute), true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := fmt.Sprintf("%064x", 100+i)
			hash := tokenHash(token)
			if err := e.store.CreateSession(ctx, catalog.Session{TokenHash: hash, AdminID: a.ID, CreatedAt: tt.lastSeen, LastSeen: tt.lastSeen}); err != nil {
				t.Fatal(err)
			}
			e.do(request{target: "/admin", cookie: &http.Cookie{Name: "catalog_session", Value: token}})
			sess, err := e.store.SessionByTokenHash(ctx, hash)
			if err != nil {
				t.Fatal(err)
			}
			if touched := !sess.LastSeen.Equal(tt.lastSeen); touched != tt.touched {
				t.Errorf("last_seen: got %v from %v, want touched=%v", sess.LastSeen, tt.lastSeen, tt.touched)
			}
		})
	}
}

func TestDashboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.get("/admin")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/admin/login" {
		t.Fatalf("anonymous: got %d to %q, want 303 to /admin/login", w.Code, w.Header().Get("Location"))
	}
	// The redirect's short body is HTML too.
	for k, v := range map[string]string{"Content-Security-Policy": wantCSP, "X-Frame-Options": "DENY", "Cache-Control": "no-store"} {
		if got := w.Header().Get(k); got != v {
			t.Errorf("redirect %s: got %q, want %q", k, got, v)
		}
	}
	cookie := e.login()
	e.addClip(catalog.Clip{Title: "Older clip"})
	e.addClip(catalog.Clip{Title: `<script>alert("x")</script>`})
	w = e.do(request{target: "/admin", cookie: cookie})
	wantHTML(t, w, http.StatusOK)
	body := w.Body.String()
	if strings.Contains(body, `<script>alert`) {
		t.Errorf("clip title not escaped")
	}
	if !strings.Contains(body, "&lt;script&gt;") || !strings.Contains(body, "Older clip") {
		t.Errorf("dashboard does not list the clips")
	}
	if strings.Index(body, "&lt;script&gt;") > strings.Index(body, "Older clip") {
		t.Errorf("dashboard does not list the newest clip first")
	}
	for _, want := range []string{`action="/admin/clips"`, `name="title"`, `name="iframe_url"`, `name="cover_url"`,
		`name="actor"`, `name="studio"`, `name="platform"`, `name="notes"`, `action="/admin/logout"`, "คลิปหลุด"} {
		if !strings.Contains(body, want) {
			t.Errorf("dashboard lacks %s", want)
		}
	}
}

func TestDashboardAddClip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cookie := e.login()
	post := func(form url.Values, cookie *http.Cookie) *httptest.ResponseRecorder {
		return e.do(request{method: "POST", target: "/admin/clips", body: form.Encode(), cookie: cookie,
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	}

	full := url.Values{"title": {"From the form"}, "iframe_url": {"https://www.youtube.com/watch?v=dQw4w9WgXcQ"},
		"cover_url": {""}, "actor": {""}, "studio": {""}, "platform": {"JAV"}, "notes": {""}}

	if w := post(full, nil); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/admin/login" {
		t.Errorf("anonymous: got %d to %q, want 303 to /admin/login", w.Code, w.Header().Get("Location"))
	}
	if n := len(e.clips()); n != 0 {
		t.Fatalf("anonymous form stored %d clips", n)
	}

	w := post(full, cookie)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/admin?added=1" {
		t.Fatalf("got %d to %q, want 303 to /admin?added=1; body %s", w.Code, w.Header().Get("Location"), w.Body)
	}
	stored := e.clips()
	if len(stored) != 1 {
		t.Fatalf("got %d clips, want 1", len(stored))
	}
	if c := stored[0]; c.Title != "From the form" || c.Platform != "JAV" || c.CoverURL != "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" {
		t.Errorf("stored %+v", c)
	}

	bad := url.Values{"title": {""}, "iframe_url": {"not a url"}, "platform": {"nope"}, "actor": {"Kept actor"},
		"notes": {"bell\a"}, "cover_url": {""}, "studio": {""}}
	w = post(bad, cookie)
	wantHTML(t, w, http.StatusUnprocessableEntity)
	body := w.Body.String()
	// The dashboard also has a search form (with its own platform
	// select); look inside the add form only.
	body = body[strings.Index(body, `action="/admin/clips"`):]
	for _, field := range []string{"title", "iframe_url", "platform", "notes"} {
		// The message sits after its field and before the next label.
		at := strings.Index(body, `name="`+field+`"`)
		if at < 0 {
			t.Fatalf("no %s field", field)
		}
		rest := body[at:]
		next := strings.Index(rest, "<label")
		if next < 0 {
			next = len(rest)
		}
		if !strings.Contains(rest[:next], `class="field-error"`) {
			t.Errorf("no error next to %s", field)
		}
	}
	if strings.Count(body, `class="field-error"`) != 4 {
		t.Errorf("got %d field errors, want 4", strings.Count(body, `class="field-error"`))
	}
	if !strings.Contains(body, `value="Kept actor"`) {
		t.Errorf("the form lost the typed values")
	}
	if n := len(e.clips()); n != 1 {
		t.Errorf("clips after a rejected form: got %d, want 1", n)
	}
}
