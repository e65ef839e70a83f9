package apidoc

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestBuild(t *testing.T) {
	tests := []struct {
		name     string
		template string
		vars     Vars
		want     string
		err      string
	}{
		{"number", `{"maximum": "${Max}"}`, Vars{"Max": 100}, `{"maximum": 100}`, ""},
		{"list", `{"enum": "${P}"}`, Vars{"P": []string{"a", "ก"}}, `{"enum": ["a","ก"]}`, ""},
		{"in text", `{"d": "at most ${Max} of ${P}"}`, Vars{"Max": 100, "P": []string{"a", "b"}}, `{"d": "at most 100 of a, b"}`, ""},
		{"text is escaped", `{"d": "v ${V}"}`, Vars{"V": `1"2\3`}, `{"d": "v 1\"2\\3"}`, ""},
		{"missing value", `{"d": "${Max}"}`, Vars{}, "", "no value for ${Max}"},
		{"unused value", `{}`, Vars{"Max": 1}, "", "${Max} is not used"},
		{"not JSON", `{"d": }`, Vars{}, "", "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Build([]byte(tt.template), tt.vars)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestRoutes: the document, the page and its files, with the page's CSP;
// an unknown file is the service's own 404.
func TestRoutes(t *testing.T) {
	writeErr := func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, catalog.ErrorMessage(err), http.StatusNotFound)
	}
	d := New([]byte(`{"openapi": "3.1.0"}`), nil, writeErr, nil, "")
	mux := http.NewServeMux()
	for _, r := range d.Routes() {
		mux.HandleFunc("GET "+r.Path, r.Handler)
	}
	serve := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec
	}
	if rec := serve("/api/openapi.json"); rec.Body.String() != `{"openapi": "3.1.0"}` || rec.Header().Get("ETag") == "" {
		t.Errorf("document: got %q with ETag %q", rec.Body, rec.Header().Get("ETag"))
	}
	page := serve("/api/docs")
	if page.Code != http.StatusOK || page.Header().Get("Content-Security-Policy") != PagePolicy {
		t.Fatalf("page: got %d with CSP %q", page.Code, page.Header().Get("Content-Security-Policy"))
	}
	for name, a := range d.assets {
		if !strings.Contains(page.Body.String(), `"`+AssetPrefix+name+`" integrity="`+a.integrity+`"`) {
			t.Errorf("page does not name %s with its integrity", name)
		}
		rec := serve(AssetPrefix + name)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != assetTypes[path.Ext(name)] ||
			rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: got %d %q %q", name, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
		}
	}
	if strings.Contains(page.Body.String(), "{{") {
		t.Errorf("page keeps a placeholder:\n%s", page.Body)
	}
	if rec := serve(AssetPrefix + "docs.js"); rec.Code != http.StatusNotFound {
		t.Errorf("unhashed name: got %d, want 404", rec.Code)
	}
}
