package cli_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// TestServiceLayers holds each service's layers to their order,
// outermost first (services.go), by what an answer shows:
//   - Common runs outside the cross-origin guard: the guard's 403 carries
//     nosniff and a request id;
//   - the header policy runs inside Common and covers the router's own
//     answers: a movie 404 is CORS-readable, no-store and keyed "movies".
func TestServiceLayers(t *testing.T) {
	store := testdb.Open(t)
	deps := cli.ServiceDeps{Store: store,
		ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)}
	clips, movies := cli.ClipService(deps), cli.MovieService(deps)
	for _, tc := range []struct {
		name    string
		h       http.Handler
		method  string
		target  string
		headers map[string]string
		status  int
		want    map[string]string // header -> value ("*": any non-empty)
	}{
		{"clips: cross-origin write refused inside Common", clips, "POST", "/admin/logout",
			map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, http.StatusForbidden,
			map[string]string{"X-Content-Type-Options": "nosniff", "X-Request-Id": "*", "Content-Type": "application/json; charset=utf-8"}},
		{"clips: unknown path", clips, "GET", "/nope", nil, http.StatusNotFound,
			map[string]string{"X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": ""}},
		{"movies: router's 404 under the header policy", movies, "GET", "/api/nope", nil, http.StatusNotFound,
			map[string]string{"X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*",
				"Cache-Control": "no-store", "Surrogate-Key": "movies"}},
		{"movies: read", movies, "GET", "/api/movies", nil, http.StatusOK,
			map[string]string{"Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=86400, stale-while-revalidate=600"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.target, nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			tc.h.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			for k, want := range tc.want {
				got := w.Header().Get(k)
				if want == "*" && got == "" || want != "*" && got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}
