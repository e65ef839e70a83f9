// Package movietest holds what the HTTP tests of the movie service and
// of its MacCMS resource API (internal/maccms) share: test movies in a
// fresh store, the service over it, requests whose answers are checked
// against the served OpenAPI document (apitest), and readers of the
// answers.
package movietest

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

// Store is the one place tests get a store: a fresh, migrated,
// empty database of the engine CATALOG_TEST_ENGINE names (testdb).
func Store(t testing.TB) catalog.Store {
	t.Helper()
	return testdb.Open(t)
}

// Movie is a readable way to write a test movie.
type Movie struct {
	catalog.Movie
	Lists [catalog.NumLists][]string // by list index (catalog.NumLists)
}

// Add normalises and upserts movies the way the importer does.
func Add(t testing.TB, store catalog.MovieStore, in ...Movie) {
	t.Helper()
	movies := make([]catalog.Movie, len(in))
	for i, mi := range in {
		m := mi.Movie
		for j, l := range mi.Lists {
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

// AddNumbered adds movies with ids 1..n named "Movie N".
func AddNumbered(t testing.TB, store catalog.MovieStore, n int) {
	t.Helper()
	in := make([]Movie, n)
	for i := range in {
		in[i].ID = int64(i + 1)
		in[i].Name = fmt.Sprintf("Movie %d", i+1)
	}
	Add(t, store, in...)
}

// SeedDemo adds n movies of the demo catalog (seed picks them), ids 1
// to n in a fresh store.
func SeedDemo(t testing.TB, store catalog.Store, seed uint64, n int) {
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

// Service returns the movie service over store, without a snapshot
// service unless one is given.
func Service(t testing.TB, store catalog.Store, snaps *snapshot.Service) http.Handler {
	t.Helper()
	return cli.MovieService(cli.ServiceDeps{Store: store, Snapshots: snaps, Version: "test", Logger: Logger(t),
		MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)})
}

// Response is an answer, its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one request through h; header pairs are name, value.
func Do(t testing.TB, h http.Handler, method, target string, header ...string) Response {
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
	return Response{Status: res.StatusCode, Header: res.Header, Body: body}
}

// Get is Do for GET, failing unless the status is want.
func Get(t testing.TB, h http.Handler, target string, want int, header ...string) Response {
	t.Helper()
	r := Do(t, h, http.MethodGet, target, header...)
	if r.Status != want {
		t.Fatalf("GET %s: got status %d, want %d; body %s", target, r.Status, want, r.Body)
	}
	return r
}

// ObjectKeys returns the keys of the JSON object at path (object member
// names) in document order.
func ObjectKeys(t testing.TB, body []byte, path ...string) []string {
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

// FirstListItemKeys returns the keys of list[0] of a list envelope.
func FirstListItemKeys(t testing.TB, body []byte) []string {
	t.Helper()
	var env struct{ List []json.RawMessage }
	if err := json.Unmarshal(body, &env); err != nil || len(env.List) == 0 {
		t.Fatalf("no list item in %s (%v)", body, err)
	}
	return ObjectKeys(t, env.List[0])
}

// HealthBody is the members of an /api/health answer.
type HealthBody struct{ Status, Version, Database, Search string }

// DecodeHealth decodes an /api/health answer.
func DecodeHealth(t testing.TB, body []byte) HealthBody {
	t.Helper()
	var h HealthBody
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return h
}

// ListPage is a list envelope's members, the list as its JSON text.
type ListPage struct {
	Code      int
	Msg       string
	Page      int64
	PageCount int64 `json:"pagecount"`
	Limit     JSONText
	Total     int64
	List      string `json:"-"`
}

// JSONText is a member's JSON text as sent: `"20"` for a string, `20`
// for a number.
type JSONText string

func (j *JSONText) UnmarshalJSON(b []byte) error {
	*j = JSONText(b)
	return nil
}

// DecodeListPage decodes a list envelope; an absent or null list is
// kept as "null", so that a test can tell it from [].
func DecodeListPage(t testing.TB, body []byte) ListPage {
	t.Helper()
	var env struct {
		ListPage
		List json.RawMessage
	}
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	env.ListPage.List = string(env.List)
	if env.List == nil {
		env.ListPage.List = "null"
	}
	return env.ListPage
}

// ListIDs returns the ids in the list of a list envelope.
func ListIDs(t testing.TB, body []byte) []int64 {
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

// SameJSON reports whether a and b hold the same JSON value, members in
// any order.
func SameJSON(t testing.TB, a, b []byte) bool {
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

// EqualKeys fails the test unless got and want are the same keys in the
// same order.
func EqualKeys(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: got keys %q, want %q", what, got, want)
	}
}

// CheckError asserts the movie error shape: exactly {"code":0,"msg":...}
// with msg containing wantMsg, and the error headers.
func CheckError(t testing.TB, r Response, wantStatus int, wantMsg string) {
	t.Helper()
	if r.Status != wantStatus {
		t.Errorf("got status %d, want %d; body %s", r.Status, wantStatus, r.Body)
	}
	EqualKeys(t, "error body", ObjectKeys(t, r.Body), []string{"code", "msg"})
	var e struct {
		Code *int
		Msg  string
	}
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("decode error body %s: %v", r.Body, err)
	}
	if e.Code == nil || *e.Code != 0 {
		t.Errorf("got code %v, want 0", e.Code)
	}
	if !bytes.Contains([]byte(e.Msg), []byte(wantMsg)) {
		t.Errorf("got msg %q, want it to contain %q", e.Msg, wantMsg)
	}
	CheckHeader(t, r, "Access-Control-Allow-Origin", "*")
	CheckHeader(t, r, "Cache-Control", "no-store")
	CheckHeader(t, r, "Content-Type", "application/json; charset=utf-8")
	CheckHeader(t, r, "X-Content-Type-Options", "nosniff")
}

// CheckHeader fails the test unless r has header name with value want.
func CheckHeader(t testing.TB, r Response, name, want string) {
	t.Helper()
	if got := r.Header.Get(name); got != want {
		t.Errorf("header %s: got %q, want %q", name, got, want)
	}
}

// Logger sends the service's log to the test log, where a failing
// test shows it.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(logWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type logWriter struct{ t testing.TB }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// VodPath is the MacCMS resource API's usual path (contract 6).
const VodPath = "/api.php/provide/vod/"
