package httpx_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// logLines decodes the JSON log records written to buf.
func logLines(t testing.TB, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var lines []map[string]any
	dec := json.NewDecoder(buf)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err == io.EOF {
			return lines
		} else if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
}

func TestCommon(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		status  int
		panics  bool
	}{
		{"ok", func(w http.ResponseWriter, r *http.Request) { httpx.WriteJSON(w, r, 200, []byte(`{}`)) }, 200, false},
		{"writes nothing", func(w http.ResponseWriter, r *http.Request) {}, 200, false},
		{"error", func(w http.ResponseWriter, r *http.Request) { writeTestError(w, r, errNotFound) }, 404, false},
		{"panic", func(w http.ResponseWriter, r *http.Request) { panic("boom at /srv/catalog/secret.go:12") }, 500, true},
		{"panic with error value", func(w http.ResponseWriter, r *http.Request) { panic(io.ErrUnexpectedEOF) }, 500, true},
		// Headers meant for the lost response must not describe the
		// error body: a stale Content-Length or Content-Encoding breaks
		// it, a public Cache-Control would keep a 500 at the edge.
		{"panic after setting representation headers", func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", "99999")
			h.Set("ETag", `"abc"`)
			h.Set("Cache-Control", "public, max-age=86400")
			h.Set("Content-Type", "text/csv")
			h.Set("Access-Control-Allow-Origin", "*")
			panic("late")
		}, 500, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&logs, nil))
			h := httpx.Common(tt.handler, log, writeTestError)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
			if rec.Code != tt.status {
				t.Fatalf("status = %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
			}
			logText := logs.String()
			lines := logLines(t, &logs)
			last := lines[len(lines)-1]
			if last["msg"] != "request" || last["status"] != float64(tt.status) || last["path"] != "/api/x" || last["method"] != "GET" {
				t.Errorf("request log line = %v, want msg request, status %d", last, tt.status)
			}
			if !tt.panics {
				if len(lines) != 1 {
					t.Errorf("got %d log lines, want 1", len(lines))
				}
				return
			}
			msg := decodeError(t, rec, 500)
			body := rec.Body.String()
			for _, leak := range []string{"boom", "goroutine", ".go", "/srv", "panic", "late", "unexpected EOF"} {
				if strings.Contains(body, leak) {
					t.Errorf("500 body %s leaks %q", body, leak)
				}
			}
			if msg == "" {
				t.Error("500 has no message")
			}
			if got := rec.Header().Get("Content-Length"); got != "" && got != itoaInt(rec.Body.Len()) {
				t.Errorf("Content-Length = %s, body is %d bytes", got, rec.Body.Len())
			}
			if got := rec.Header().Get("Content-Encoding"); got != "" {
				t.Errorf("500 carries Content-Encoding: %q", got)
			}
			// A GET error has an ETag, but it must be the error body's own,
			// never the one the panicking handler had set.
			if got, want := rec.Header().Get("ETag"), httpx.NewPayload(rec.Body.Bytes()).ETag; got != "" && got != want {
				t.Errorf("500 carries ETag %q, want the error body's %q", got, want)
			}
			if got := rec.Header().Get("Cache-Control"); strings.Contains(got, "public") {
				t.Errorf("500 carries Cache-Control %q", got)
			}
			if tt.name == "panic after setting representation headers" && rec.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Error("panic recovery dropped the CORS header")
			}
			if !strings.Contains(logText, "goroutine") || !strings.Contains(logText, "panic serving request") {
				t.Error("the panic is not logged with its stack")
			}
		})
	}
}

func TestCommonPanicAfterWrite(t *testing.T) {
	t.Parallel()
	h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte("partial"))
		panic("too late")
	}), slog.New(slog.DiscardHandler), writeTestError)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusAccepted || rec.Body.String() != "partial" {
		t.Errorf("got %d %q, want the already-sent 202 %q untouched", rec.Code, rec.Body, "partial")
	}
}

func TestCommonAbortHandlerPropagates(t *testing.T) {
	t.Parallel()
	h := httpx.Common(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(http.ErrAbortHandler)
	}), slog.New(slog.DiscardHandler), writeTestError)
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler to propagate", v)
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

// Through a real server the recovered 500 must be a complete, readable
// response even when the handler had set a Content-Length.
func TestCommonPanicOverHTTP(t *testing.T) {
	t.Parallel()
	h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		w.Header().Set("Content-Encoding", "gzip")
		panic("boom")
	}), slog.New(slog.DiscardHandler), writeTestError)
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the 500: %v", err)
	}
	if res.StatusCode != 500 || !json.Valid(body) {
		t.Errorf("got %d %q, want a 500 with a JSON body", res.StatusCode, body)
	}
}

func TestCommonWithRouter(t *testing.T) {
	t.Parallel()
	h := httpx.Common(newTestRouter(t, false), slog.New(slog.DiscardHandler), writeTestError)
	for _, tc := range []struct {
		method, path string
		status       int
	}{{"GET", "/api/clips", 200}, {"GET", "/nope", 404}, {"PUT", "/api/clips", 405}} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.status || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s = %d nosniff %q, want %d nosniff", tc.method, tc.path, rec.Code, rec.Header().Get("X-Content-Type-Options"), tc.status)
		}
	}
}

func TestNewServerTimeouts(t *testing.T) {
	t.Parallel()
	srv := httpx.NewServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Errorf("server timeouts not all set: %+v", srv)
	}
}

func TestLogError(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	r := httptest.NewRequest("GET", "/x", nil)
	httpx.LogError(log, r, errNotFound)
	if logs.Len() != 0 {
		t.Errorf("a 404 was logged: %s", logs.String())
	}
	httpx.LogError(log, r, io.ErrUnexpectedEOF)
	if !strings.Contains(logs.String(), "unexpected EOF") || !strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("an internal error was not logged as an error: %q", logs.String())
	}
	logs.Reset()
	httpx.LogError(log, r, catalog.Errorf(catalog.EUNAVAILABLE, "snapshot not ready"))
	if !strings.Contains(logs.String(), `"level":"WARN"`) {
		t.Errorf("a 503 was not logged as a warning: %q", logs.String())
	}
}

func itoaInt(n int) string { return strconv.Itoa(n) }

// A query that url.Values cannot hold whole is a 400 in the service's
// shape, so that ids=1;2 is refused instead of silently meaning nothing.
// (In middleware_test.go beside the other request-wide rules.)
func TestRouterMalformedQuery(t *testing.T) {
	t.Parallel()
	reached := false
	h := httpx.NewRouter(writeTestError)
	h.HandleFunc(http.MethodGet, "/api/x", func(w http.ResponseWriter, r *http.Request) {
		reached = true
		httpx.WriteJSON(w, r, 200, []byte(`{}`))
	})
	tests := []struct {
		query string
		want  int
	}{
		{"ids=1;2", http.StatusBadRequest},
		{"q=%zz", http.StatusBadRequest},
		{"q=a%", http.StatusBadRequest},
		{"q=%E0%B8%97&ids=1,2", http.StatusOK},
		{"q=a%3Bb", http.StatusOK},
		{"page=2&limit=3", http.StatusOK},
	}
	for _, tt := range tests {
		reached = false
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x?"+tt.query, nil))
		if rec.Code != tt.want || reached != (tt.want == http.StatusOK) {
			t.Errorf("?%s: got %d (handler reached %v), want %d", tt.query, rec.Code, reached, tt.want)
		}
		if tt.want == http.StatusBadRequest && !strings.Contains(rec.Body.String(), "malformed query string") {
			t.Errorf("?%s: body %s does not say the query is malformed", tt.query, rec.Body)
		}
	}
}
