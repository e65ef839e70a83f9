package movieapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"catalog/internal/apitest"
	"catalog/internal/movieapi"
)

// maccmsPending are the MacCMS operations (contract 6) that the document
// describes ahead of the code, which is built on another branch. Empty
// this list when that code lands: CheckRoutes then fails on any left.
var maccmsPending = func() []string {
	var ops []string
	for _, p := range []string{"/api.php/provide/vod", "/api.php/provide/vod/", "/api/provide/vod",
		"/api.php/provide/vod/at/json", "/api.php/provide/vod/at/json/",
		"/api.php/provide/vod/at/xml", "/api.php/provide/vod/at/xml/"} {
		ops = append(ops, "GET "+p, "OPTIONS "+p)
	}
	return ops
}()

func TestOpenAPIRoutes(t *testing.T) {
	store := newTestStore(t)
	h := newService(t, store, nil)
	apitest.CheckRoutes(t, apitest.Document(t, h), movieapi.RoutePatterns(store), maccmsPending...)
}

// TestOpenAPIDocument: the served document is valid OpenAPI 3.1 with the
// movie service's headers, and states the contract's limits (pinned here
// as the contract's numbers).
func TestOpenAPIDocument(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	r := get(t, h, "/api/openapi.json", http.StatusOK)
	checkHeader(t, r, "Access-Control-Allow-Origin", "*")
	checkHeader(t, r, "Cache-Control", "public, max-age=86400, stale-while-revalidate=600")
	checkHeader(t, r, "X-Content-Type-Options", "nosniff")
	checkHeader(t, r, "Content-Type", "application/json; charset=utf-8")
	get(t, h, "/api/openapi.json", http.StatusNotModified, "If-None-Match", r.header.Get("ETag"))
	if _, err := apitest.Load(r.body); err != nil {
		t.Fatal(err)
	}
	pre := do(t, h, http.MethodOptions, "/api/openapi.json")
	if pre.status != http.StatusNoContent {
		t.Errorf("OPTIONS: got %d, want 204", pre.status)
	}

	var d struct {
		OpenAPI    string
		Info       struct{ Version string }
		Components struct {
			Parameters map[string]struct {
				Description string
				Schema      map[string]any
			}
			Schemas map[string]struct {
				Properties map[string]any
			}
		}
	}
	if err := json.Unmarshal(r.body, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" || d.Info.Version != "test" {
		t.Errorf("got openapi %q version %q, want 3.1.0 and the service's version", d.OpenAPI, d.Info.Version)
	}
	p := d.Components.Parameters
	for _, tt := range []struct {
		param, key string
		want       float64
	}{
		{"limit", "default", 20}, {"limit", "x-clamped-to", 100},
		{"pagesize", "default", 20}, {"pagesize", "x-clamped-to", 100},
		{"ids", "x-max-items", 100}, {"h", "minimum", 1}, {"h", "maximum", 8760},
		{"q", "x-max-length-trimmed", 256}, {"q", "x-max-words", 16},
		{"wd", "x-max-length-trimmed", 256}, {"wd", "x-max-words", 16},
	} {
		if got := p[tt.param].Schema[tt.key]; got != tt.want {
			t.Errorf("parameter %s %s: got %v, want %v", tt.param, tt.key, got, tt.want)
		}
	}

	// The movie schemas name exactly the fields of contract 4.1.
	fields := []string{"id", "title", "slug", "year", "poster1_url", "poster2_url", "categories", "actor",
		"director", "studio", "genre", "country", "synopsis", "id_code", "release"}
	for schema, want := range map[string][]string{"Movie": fields, "JavMovie": append(slices.Clone(fields), "URL_player")} {
		var got []string
		for k := range d.Components.Schemas[schema].Properties {
			got = append(got, k)
		}
		slices.Sort(got)
		want = slices.Sorted(slices.Values(want))
		if !slices.Equal(got, want) {
			t.Errorf("%s properties: got %q, want %q", schema, got, want)
		}
	}
}

func TestDocsPage(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	apitest.CheckDocsPage(t, h)
	r := get(t, h, "/api/docs/nope.css", http.StatusNotFound)
	checkError(t, r, http.StatusNotFound, "no such file")
}
