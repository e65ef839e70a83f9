package clipapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"catalog/internal/apitest"
	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/clipapi"
	"catalog/internal/httpx"
	"catalog/internal/importer"
	"catalog/internal/search"
)

// docJSON decodes the served OpenAPI document.
func docJSON(t testing.TB, h http.Handler) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(apitest.Document(t, h), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// at walks a decoded document: keys of objects, one after another.
func at(t testing.TB, v any, path ...string) any {
	t.Helper()
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("document: no object at %q (of %q)", k, path)
		}
		v = m[k]
	}
	return v
}

// resolve follows a local "$ref" ("#/components/schemas/X") of v; a
// schema without one is returned as it is.
func resolve(t testing.TB, doc, v any) any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	ref, ok := m["$ref"].(string)
	if !ok {
		return v
	}
	return at(t, doc, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
}

// TestOpenAPIDocument: the served document is valid OpenAPI 3.1, is
// served with the headers of every read, and states the contract's
// limits (pinned here as the contract's numbers, not the constants).
func TestOpenAPIDocument(t *testing.T) {
	e := newEnv(t)
	w := e.get("/api/openapi.json")
	if w.Code != http.StatusOK {
		t.Fatalf("got %d, want 200", w.Code)
	}
	for k, v := range map[string]string{
		"Content-Type":                "application/json; charset=utf-8",
		"Access-Control-Allow-Origin": "*",
		"Cache-Control":               "public, max-age=60",
		"X-Content-Type-Options":      "nosniff",
	} {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: got %q, want %q", k, got, v)
		}
	}
	tag := w.Header().Get("ETag")
	if tag == "" {
		t.Fatal("no ETag")
	}
	if w := e.do(request{target: "/api/openapi.json", headers: map[string]string{"If-None-Match": tag}}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: got %d, want 304", w.Code)
	}
	if _, err := apitest.Load(w.Body.Bytes()); err != nil {
		t.Fatal(err)
	}

	d := docJSON(t, e.handler)
	if got := at(t, d, "openapi"); got != "3.1.0" {
		t.Errorf("openapi: got %v, want 3.1.0", got)
	}
	if got := at(t, d, "info", "version"); got != "test-1" {
		t.Errorf("info.version: got %v, want the service's version test-1", got)
	}
	params := at(t, d, "components", "parameters")
	create := at(t, d, "components", "schemas", "ClipCreate", "properties")
	for _, tt := range []struct {
		path []string
		want float64
	}{
		{[]string{"limit", "schema", "default"}, 20},
		{[]string{"limit", "schema", "x-clamped-to"}, 100},
		{[]string{"q", "schema", "x-max-length-trimmed"}, 256},
		{[]string{"q", "schema", "x-max-words"}, 16},
		{[]string{"page", "schema", "minimum"}, 1},
	} {
		if got := at(t, params, tt.path...); got != tt.want {
			t.Errorf("parameters %v: got %v, want %v", tt.path, got, tt.want)
		}
	}
	for _, tt := range []struct {
		field string
		want  float64
	}{{"title", 300}, {"actor", 200}, {"studio", 200}, {"notes", 5000}, {"iframe_url", 2048}, {"cover_url", 2048}} {
		if got := at(t, resolve(t, d, at(t, create, tt.field)), "maxLength"); got != tt.want {
			t.Errorf("ClipCreate.%s maxLength: got %v, want %v", tt.field, got, tt.want)
		}
	}
	if got := at(t, d, "components", "schemas", "ClipList", "properties", "meta", "properties", "limit", "maximum"); got != float64(100) {
		t.Errorf("meta.limit maximum: got %v, want 100", got)
	}
	if got := at(t, d, "components", "securitySchemes", "session", "name"); got != "catalog_session" {
		t.Errorf("session cookie: got %v, want catalog_session", got)
	}
}

// TestOpenAPIPlatforms: the platform enumeration in the document is the
// configured one, in configured order.
func TestOpenAPIPlatforms(t *testing.T) {
	p, err := catalog.NewPlatforms([]string{"Zeta", "Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(c *cli.ServiceDeps) { c.Platforms = p })
	d := docJSON(t, e.handler)
	got := at(t, d, "components", "parameters", "platform", "schema", "enum")
	if want := []any{"", "Zeta", "Alpha"}; !slices.Equal(got.([]any), want) {
		t.Errorf("platform enum: got %v, want %v", got, want)
	}
	e.get("/api/platforms") // validated against that document by the helper
}

// TestOpenAPIRoutes: every route under /api is in the document and every
// operation of the document is routed.
func TestOpenAPIRoutes(t *testing.T) {
	e := newEnv(t)
	api := clipapi.New(clipapi.Config{Store: e.store, Search: search.NewLive(e.store, catalog.SearchClips, nil),
		Sessions: auth.NewSessions(e.store, nil, false), Imports: new(importer.Slot)})
	rt := httpx.NewRouter(api.WriteError)
	api.Mount(rt)
	apitest.CheckRoutes(t, apitest.Document(t, e.handler), rt.Patterns())
}

// TestDocsPage: the reference page and its files, with their CSP.
func TestDocsPage(t *testing.T) {
	e := newEnv(t)
	apitest.CheckDocsPage(t, e.handler)
	e.get("/api/docs/nope.js") // a 404 in the clip error shape, validated
}

// TestOpenAPIPatterns: every "pattern" of the served document compiles
// as RE2, for the Go validators and generators that read it.
func TestOpenAPIPatterns(t *testing.T) {
	apitest.CheckPatterns(t, apitest.Document(t, newEnv(t).handler))
}
