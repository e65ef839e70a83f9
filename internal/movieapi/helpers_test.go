package movieapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/apitest"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/testdb"
)

// newTestStore is the one place tests get a store: a fresh, migrated,
// empty database of the engine CATALOG_TEST_ENGINE names (testdb).
func newTestStore(t testing.TB) catalog.Store {
	t.Helper()
	return testdb.Open(t)
}

// movieInput is a readable way to write a test movie.
type movieInput struct {
	catalog.Movie
	lists [catalog.NumLists][]string
}

// addMovies normalises and upserts movies the way the importer does.
func addMovies(t testing.TB, store catalog.MovieStore, in ...movieInput) {
	t.Helper()
	movies := make([]catalog.Movie, len(in))
	for i, mi := range in {
		m := mi.Movie
		for j, l := range mi.lists {
			m.Lists[j] = catalog.NewList(l)
		}
		if err := m.Normalize(); err != nil {
			t.Fatalf("normalize movie %d: %v", i, err)
		}
		movies[i] = m
	}
	if err := store.UpsertMovies(context.Background(), movies); err != nil {
		t.Fatalf("upsert movies: %v", err)
	}
}

// addNumbered adds movies with ids 1..n named "Movie N".
func addNumbered(t testing.TB, store catalog.MovieStore, n int) {
	t.Helper()
	in := make([]movieInput, n)
	for i := range in {
		in[i].ID = int64(i + 1)
		in[i].Name = fmt.Sprintf("Movie %d", i+1)
	}
	addMovies(t, store, in...)
}

// seedDemo adds n movies of the demo catalog (seed picks them), ids 1
// to n in a fresh store.
func seedDemo(t testing.TB, store catalog.Store, seed uint64, n int) {
	t.Helper()
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	g := demo.NewGenerator(seed, platforms, time.Now().Add(-time.Hour), time.Second, 0)
	if err := demo.SeedMovies(context.Background(), store, g, n); err != nil {
		t.Fatal(err)
	}
}

// newService returns the movie service over store, without a snapshot
// service unless one is given.
func newService(t testing.TB, store catalog.Store, snaps *snapshot.Service) http.Handler {
	t.Helper()
	return cli.MovieService(cli.ServiceDeps{Store: store, Snapshots: snaps, Version: "test", Logger: testLogger(t),
		MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)})
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request through h; header pairs are name, value.
func do(t testing.TB, h http.Handler, method, target string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	apitest.Check(t, h, req, res.StatusCode, res.Header, body)
	return response{status: res.StatusCode, header: res.Header, body: body}
}

// get is do for GET, failing unless the status is want.
func get(t testing.TB, h http.Handler, target string, want int, header ...string) response {
	t.Helper()
	r := do(t, h, http.MethodGet, target, header...)
	if r.status != want {
		t.Fatalf("GET %s: got status %d, want %d; body %s", target, r.status, want, r.body)
	}
	return r
}

// objectKeys returns the keys of the JSON object at path (object member
// names) in document order.
func objectKeys(t testing.TB, body []byte, path ...string) []string {
	t.Helper()
	var raw json.RawMessage = body
	for _, p := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("decode %s: %v", body, err)
		}
		raw = m[p]
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object at %v: %s", path, raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("decode keys: %v", err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("decode value: %v", err)
		}
	}
	return keys
}

// firstListItemKeys returns the keys of list[0] of a list envelope.
func firstListItemKeys(t testing.TB, body []byte) []string {
	t.Helper()
	var env struct{ List []json.RawMessage }
	if err := json.Unmarshal(body, &env); err != nil || len(env.List) == 0 {
		t.Fatalf("no list item in %s (%v)", body, err)
	}
	return objectKeys(t, env.List[0])
}

// healthBody is the members of an /api/health answer.
type healthBody struct{ Status, Version, Database, Search string }

func decodeHealth(t testing.TB, body []byte) healthBody {
	t.Helper()
	var h healthBody
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return h
}

// listPage is a list envelope's members, the list as its JSON text.
type listPage struct {
	Code      int
	Msg       string
	Page      int64
	PageCount int64 `json:"pagecount"`
	Limit     jsonText
	Total     int64
	List      string `json:"-"`
}

// jsonText is a member's JSON text as sent: `"20"` for a string, `20`
// for a number.
type jsonText string

func (j *jsonText) UnmarshalJSON(b []byte) error {
	*j = jsonText(b)
	return nil
}

// decodeListPage decodes a list envelope; an absent or null list is
// kept as "null", so that a test can tell it from [].
func decodeListPage(t testing.TB, body []byte) listPage {
	t.Helper()
	var env struct {
		listPage
		List json.RawMessage
	}
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	env.listPage.List = string(env.List)
	if env.List == nil {
		env.listPage.List = "null"
	}
	return env.listPage
}

// listIDs returns the ids in the list of a list envelope.
func listIDs(t testing.TB, body []byte) []int64 {
	t.Helper()
	var env struct{ List []struct{ ID int64 } }
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	ids := []int64{}
	for _, m := range env.List {
		ids = append(ids, m.ID)
	}
	return ids
}

// sameJSON reports whether a and b hold the same JSON value, members in
// any order.
func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("decode %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

func equalKeys(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: got keys %q, want %q", what, got, want)
	}
}

// checkError asserts the movie error shape: exactly {"code":0,"msg":...}
// with msg containing wantMsg, and the error headers.
func checkError(t testing.TB, r response, wantStatus int, wantMsg string) {
	t.Helper()
	if r.status != wantStatus {
		t.Errorf("got status %d, want %d; body %s", r.status, wantStatus, r.body)
	}
	equalKeys(t, "error body", objectKeys(t, r.body), []string{"code", "msg"})
	var e struct {
		Code *int
		Msg  string
	}
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("decode error body %s: %v", r.body, err)
	}
	if e.Code == nil || *e.Code != 0 {
		t.Errorf("got code %v, want 0", e.Code)
	}
	if !bytes.Contains([]byte(e.Msg), []byte(wantMsg)) {
		t.Errorf("got msg %q, want it to contain %q", e.Msg, wantMsg)
	}
	checkHeader(t, r, "Access-Control-Allow-Origin", "*")
	checkHeader(t, r, "Cache-Control", "no-store")
	checkHeader(t, r, "Content-Type", "application/json; charset=utf-8")
	checkHeader(t, r, "X-Content-Type-Options", "nosniff")
}

func checkHeader(t testing.TB, r response, name, want string) {
	t.Helper()
	if got := r.header.Get(name); got != want {
		t.Errorf("header %s: got %q, want %q", name, got, want)
	}
}

// testLogger sends the service's log to the test log, where a failing
// test shows it.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
