package httpx_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// TestPolicy pins the header policy both services share: CORS on every
// answer, the success Cache-Control on successful reads that set none,
// no-store on every error, nothing on other methods.
func TestPolicy(t *testing.T) {
	t.Parallel()
	p := &httpx.Policy{Success: "public, max-age=60"}
	for _, tc := range []struct {
		name, method string
		handler      http.HandlerFunc
		wantCache    string
	}{
		{"read", "GET", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }, "public, max-age=60"},
		{"head", "HEAD", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }, "public, max-age=60"},
		{"implicit 200", "GET", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }, "public, max-age=60"},
		{"not modified", "GET", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(304) }, "public, max-age=60"},
		{"own choice", "GET", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(200)
		}, "no-store"},
		{"not found", "GET", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) }, "no-store"},
		{"error after choosing", "GET", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "public, max-age=300")
			w.WriteHeader(503)
		}, "no-store"},
		{"preflight", "OPTIONS", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }, ""},
		{"write", "POST", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) }, ""},
		{"failed write", "POST", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }, "no-store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			p.Wrap(tc.handler).ServeHTTP(w, httptest.NewRequest(tc.method, "/x", nil))
			if got := w.Header().Get("Cache-Control"); got != tc.wantCache {
				t.Errorf("Cache-Control: got %q, want %q", got, tc.wantCache)
			}
			if got := w.Header().Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin: got %q, want *", got)
			}
		})
	}
}

func TestClearForError(t *testing.T) {
	t.Parallel()
	cleared := []string{"ETag", "Last-Modified", "Content-Encoding", "Location", "Content-Length", "Content-Disposition"}
	for _, tt := range []struct {
		contentRange, want string
	}{
		{"bytes 0-99/5000", ""},          // describes a body that will not go out
		{"bytes */5000", "bytes */5000"}, // the size a 416 carries
	} {
		h := http.Header{}
		for _, k := range cleared {
			h.Set(k, "x")
		}
		h.Set("Content-Range", tt.contentRange)
		h.Set("Cache-Control", "public, max-age=60")
		h.Set("Access-Control-Allow-Origin", "*")
		httpx.ClearForError(h)
		for _, k := range cleared {
			if v := h.Get(k); v != "" {
				t.Errorf("%s: got %q, want none", k, v)
			}
		}
		if got := h.Get("Content-Range"); got != tt.want {
			t.Errorf("Content-Range %q: got %q, want %q", tt.contentRange, got, tt.want)
		}
		if got := h.Get("Cache-Control"); got != "no-store" {
			t.Errorf("Cache-Control: got %q, want no-store", got)
		}
		if got := h.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("Access-Control-Allow-Origin: got %q, want it kept", got)
		}
	}
}

// TestHandler checks that a returned error, and only that, reaches the
// service's error writer.
func TestHandler(t *testing.T) {
	t.Parallel()
	var written []error
	ew := httpx.ErrorWriter(func(w http.ResponseWriter, r *http.Request, err error) {
		written = append(written, err)
		w.WriteHeader(httpx.ErrorStatus(err))
	})
	fail := catalog.Errorf(catalog.ENOTFOUND, "gone")
	for _, tc := range []struct {
		err  error
		want int
	}{{nil, 200}, {fail, 404}} {
		written = nil
		w := httptest.NewRecorder()
		ew.Handler(func(w http.ResponseWriter, r *http.Request) error {
			if tc.err == nil {
				w.WriteHeader(200)
			}
			return tc.err
		}).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if w.Code != tc.want {
			t.Errorf("error %v: got status %d, want %d", tc.err, w.Code, tc.want)
		}
		if tc.err == nil && len(written) != 0 || tc.err != nil && (len(written) != 1 || !errors.Is(written[0], fail)) {
			t.Errorf("error %v: error writer got %v", tc.err, written)
		}
	}
}
