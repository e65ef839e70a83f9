package clipapi_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/apitest"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// newTestStore is the one place the tests get a store: a fresh, migrated,
// empty database of the engine CATALOG_TEST_ENGINE names (testdb).
func newTestStore(t testing.TB) catalog.Store {
	t.Helper()
	return testdb.Open(t)
}

const (
	testUser     = "admin"
	testPassword = "correct horse battery staple"
)

// env is one clip service on a fresh store.
type env struct {
	t       testing.TB
	store   catalog.Store
	handler http.Handler
}

func newEnv(t testing.TB, configure ...func(*cli.ServiceDeps)) *env {
	t.Helper()
	store := newTestStore(t)
	// Warnings and errors (a 500's cause) show up with a failing test.
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := cli.ServiceDeps{Store: store, Version: "test-1", Logger: logger,
		ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)}
	for _, f := range configure {
		f(&cfg)
	}
	return &env{t: t, store: store, handler: cli.ClipService(cfg)}
}

// request describes one call; zero fields mean "not sent".
type request struct {
	method  string
	target  string
	body    string
	headers map[string]string
	cookie  *http.Cookie
	remote  string
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

// postJSON sends a JSON body with a session cookie.
func (e *env) postJSON(method, target, body string, cookie *http.Cookie) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.do(request{method: method, target: target, body: body, cookie: cookie,
		headers: map[string]string{"Content-Type": "application/json"}})
}

// login stores a session of the test administrator (created once) as
// the login form does, and returns its cookie. The API only reads
// sessions; the form that starts them is internal/admin's to test.
func (e *env) login() *http.Cookie {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.store.AdminByUsername(ctx, testUser)
	if err != nil {
		hash, err := bcrypt.GenerateFromPassword([]byte(testPassword), bcrypt.MinCost)
		if err != nil {
			e.t.Fatal(err)
		}
		a = catalog.Admin{Username: testUser, PasswordHash: string(hash)}
		if err := e.store.CreateAdmin(ctx, &a); err != nil {
			e.t.Fatalf("create admin: %v", err)
		}
	}
	// Contract 5: 256 random bits in hex, stored as their SHA-256.
	raw := make([]byte, 32)
	rand.Read(raw)
	token := hex.EncodeToString(raw)
	sum := sha256.Sum256([]byte(token))
	now := time.Now().UTC().Truncate(time.Second)
	sess := catalog.Session{TokenHash: hex.EncodeToString(sum[:]), AdminID: a.ID, CreatedAt: now, LastSeen: now}
	if err := e.store.CreateSession(ctx, sess); err != nil {
		e.t.Fatalf("create session: %v", err)
	}
	return &http.Cookie{Name: "catalog_session", Value: token}
}

// addClip stores a clip directly and returns it with id and created_at.
func (e *env) addClip(c catalog.Clip) catalog.Clip {
	e.t.Helper()
	if c.IframeURL == "" {
		c.IframeURL = "https://player.example/v/1"
	}
	if err := e.store.CreateClip(context.Background(), &c); err != nil {
		e.t.Fatalf("create clip: %v", err)
	}
	return c
}

func (e *env) clipCount() int64 {
	e.t.Helper()
	total, err := e.store.CountClips(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return total
}

// refClips is the page of the clips of platform ("" = all), newest
// first, and their total, computed from every stored clip: the
// reference the service's lists must agree with.
func (e *env) refClips(platform string, p catalog.Paging) (ids []int64, total int64) {
	e.t.Helper()
	var all []int64
	err := e.store.ExportClips(context.Background(), func(c *catalog.Clip) error {
		if platform == "" || c.Platform == platform {
			all = append(all, c.ID)
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	slices.Reverse(all) // export is lowest id first
	from := min(p.Offset(), int64(len(all)))
	return all[from:min(from+p.Limit, int64(len(all)))], int64(len(all))
}

// decode parses a JSON body into a generic value, keeping numbers exact.
func decode(t testing.TB, body []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, body)
	}
	return v
}

// clipJSON mirrors the wire form of a clip for decoding.
type clipJSON struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	IframeURL string `json:"iframe_url"`
	CoverURL  string `json:"cover_url"`
	Actor     string `json:"actor"`
	Studio    string `json:"studio"`
	Platform  string `json:"platform"`
	Notes     string `json:"notes"`
	CreatedAt string `json:"created_at"`
}

type listJSON struct {
	Meta struct {
		Page  int64 `json:"page"`
		Limit int64 `json:"limit"`
		Total int64 `json:"total"`
	} `json:"meta"`
	Data []clipJSON `json:"data"`
}

func decodeList(t testing.TB, w *httptest.ResponseRecorder) listJSON {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200; body %s", w.Code, w.Body)
	}
	var l listJSON
	if err := json.Unmarshal(w.Body.Bytes(), &l); err != nil {
		t.Fatalf("decode list: %v\n%s", err, w.Body)
	}
	return l
}

func decodeClip(t testing.TB, w *httptest.ResponseRecorder) clipJSON {
	t.Helper()
	var d struct {
		Data clipJSON `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil {
		t.Fatalf("decode clip: %v\n%s", err, w.Body)
	}
	return d.Data
}

// errorBody is the decoded clip error shape.
type errorBody struct {
	Error struct {
		Status  int               `json:"status"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

// wantError checks the status and the clip error shape key by key.
func wantError(t testing.TB, w *httptest.ResponseRecorder, status int) errorBody {
	t.Helper()
	if w.Code != status {
		t.Fatalf("got status %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type: got %q, want application/json; charset=utf-8", ct)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control on error: got %q, want no-store", cc)
	}
	raw := decode(t, w.Body.Bytes())
	if len(raw) != 1 || raw["error"] == nil {
		t.Fatalf("error body: got keys %v, want only \"error\"", keys(raw))
	}
	inner, _ := raw["error"].(map[string]any)
	for k := range inner {
		if k != "status" && k != "message" && k != "fields" && k != "report" {
			t.Errorf("error object has unexpected member %q", k)
		}
	}
	var e errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if e.Error.Status != status {
		t.Errorf("error.status: got %d, want %d", e.Error.Status, status)
	}
	if e.Error.Message == "" {
		t.Errorf("error.message is empty")
	}
	if status != http.StatusBadRequest && e.Error.Fields != nil {
		t.Errorf("fields on a %d: %v", status, e.Error.Fields)
	}
	return e
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
