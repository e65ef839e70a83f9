package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/httpx"
)

// echo answers with its name and the {id} path value.
func echo(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(name + ":" + r.PathValue("id")))
	}
}

// newTestRouter registers both services' route shapes, including a
// literal path beside a wildcard with several methods each, which
// ServeMux only accepts when the 405 fallback does not conflict.
func newTestRouter(t testing.TB, snapshotFirst bool) *httpx.Router {
	t.Helper()
	rt := httpx.NewRouter(writeTestError)
	snapshot := func() {
		rt.Handle("GET", "/api/movies/snapshot", echo("snapshot"))
		rt.Handle("OPTIONS", "/api/movies/snapshot", echo("preflight-snapshot"))
	}
	if snapshotFirst {
		snapshot()
	}
	rt.HandleFunc("GET", "/api/clips", echo("list"))
	rt.HandleFunc("POST", "/api/clips", echo("create"))
	rt.HandleFunc("GET", "/api/clips/{id}", echo("get"))
	rt.HandleFunc("PATCH", "/api/clips/{id}", echo("patch"))
	rt.HandleFunc("DELETE", "/api/clips/{id}", echo("delete"))
	rt.Handle("GET", "/api/movies/{id}", echo("movie"))
	rt.Handle("OPTIONS", "/api/movies/{id}", echo("preflight-movie"))
	if !snapshotFirst {
		snapshot()
	}
	rt.HandleFunc("POST", "/admin/login", echo("login"))
	return rt
}

func TestRouter(t *testing.T) {
	t.Parallel()
	for _, snapshotFirst := range []bool{false, true} {
		var rt *httpx.Router
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Fatalf("registering routes (snapshot first %v) panicked: %v", snapshotFirst, v)
				}
			}()
			rt = newTestRouter(t, snapshotFirst)
		}()
		tests := []struct {
			method, path string
			status       int
			body         string // for 2xx
			allow        string // for 405
		}{
			{"GET", "/api/clips", 200, "list:", ""},
			{"HEAD", "/api/clips", 200, "", ""},
			{"POST", "/api/clips", 200, "create:", ""},
			{"GET", "/api/clips/17", 200, "get:17", ""},
			{"PATCH", "/api/clips/17", 200, "patch:17", ""},
			{"DELETE", "/api/clips/17", 200, "delete:17", ""},
			{"GET", "/api/movies/5", 200, "movie:5", ""},
			{"OPTIONS", "/api/movies/5", 200, "preflight-movie:5", ""},
			{"GET", "/api/movies/snapshot", 200, "snapshot:", ""},
			{"OPTIONS", "/api/movies/snapshot", 200, "preflight-snapshot:", ""},

			{"PUT", "/api/clips", 405, "", "GET, HEAD, POST"},
			{"DELETE", "/api/clips", 405, "", "GET, HEAD, POST"},
			{"POST", "/api/clips/17", 405, "", "DELETE, GET, HEAD, PATCH"},
			{"POST", "/api/movies/5", 405, "", "GET, HEAD, OPTIONS"},
			{"DELETE", "/api/movies/snapshot", 405, "", "GET, HEAD, OPTIONS"},
			{"GET", "/admin/login", 405, "", "POST"},
			{"HEAD", "/admin/login", 405, "", "POST"},

			{"GET", "/", 404, "", ""},
			{"GET", "/nope", 404, "", ""},
			{"POST", "/nope", 404, "", ""},
			{"GET", "/api/clips/", 404, "", ""},
			{"GET", "/api/clips/1/extra", 404, "", ""},
			{"GET", "/api/movies/snapshot/x", 404, "", ""},
			{"GET", "/API/clips", 404, "", ""},
		}
		for _, tt := range tests {
			t.Run(tt.method+" "+tt.path, func(t *testing.T) {
				rec := httptest.NewRecorder()
				rt.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
				switch tt.status {
				case 200:
					if rec.Code != 200 {
						t.Fatalf("status = %d, want 200 (body %s)", rec.Code, rec.Body)
					}
					if tt.method != "HEAD" && rec.Body.String() != tt.body {
						t.Errorf("body = %q, want %q", rec.Body, tt.body)
					}
				case 405:
					if tt.method == "HEAD" {
						if rec.Code != 405 || rec.Body.Len() != 0 {
							t.Errorf("HEAD = %d with body %q, want 405 and none", rec.Code, rec.Body)
						}
					} else {
						decodeError(t, rec, 405)
					}
					if got := rec.Header().Get("Allow"); got != tt.allow {
						t.Errorf("Allow = %q, want %q", got, tt.allow)
					}
				case 404:
					decodeError(t, rec, 404)
					if got := rec.Header().Get("Allow"); got != "" {
						t.Errorf("404 carries Allow %q", got)
					}
				}
			})
		}
	}
}
