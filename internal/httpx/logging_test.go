package httpx_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// Every request gets an id: the one its sender gave when usable, else a
// new one; it is in the response header and in every log line of the
// request, the error lines included.
func TestRequestID(t *testing.T) {
	t.Parallel()
	generated := regexp.MustCompile(`^[0-9a-f]{24}$`)
	tests := []struct {
		name, sent string
		keep       bool
	}{
		{"none", "", false},
		{"uuid", "0b8f2c1e-6d4a-4e0f-9d43-4b2f7b8f6a11", true},
		{"trace id", "Root=1-67891233-abcdef012345678912345678", true},
		{"128 bytes", strings.Repeat("a", 128), true},
		{"129 bytes", strings.Repeat("a", 129), false},
		{"space", "abc def", false},
		{"quote", `abc"def`, false},
		{"non-ASCII", "idé", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			// The service's logger, wrapped as the program wraps it.
			log := slog.New(httpx.LogHandler(slog.NewJSONHandler(&logs, nil)))
			h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				httpx.LogError(log, r, errInternal)
				writeTestError(w, r, errInternal)
			}), log, writeTestError)
			req := httptest.NewRequest("GET", "/api/x", nil)
			if tt.sent != "" {
				req.Header.Set("X-Request-Id", tt.sent)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			id := rec.Header().Get("X-Request-Id")
			switch {
			case tt.keep && id != tt.sent:
				t.Errorf("X-Request-Id: got %q, want the sent %q", id, tt.sent)
			case !tt.keep && !generated.MatchString(id):
				t.Errorf("X-Request-Id: got %q, want a new 24-hex-digit id", id)
			}
			lines := logLines(t, &logs)
			if len(lines) != 2 {
				t.Fatalf("got %d log lines, want the error and the request line", len(lines))
			}
			for _, l := range lines {
				if l["request_id"] != id {
					t.Errorf("log line %v: request_id %v, want %q", l["msg"], l["request_id"], id)
				}
			}
		})
	}
	// Two requests without an id get different ones.
	h := httpx.Common(http.NotFoundHandler(), slog.New(slog.DiscardHandler), writeTestError)
	a, b := httptest.NewRecorder(), httptest.NewRecorder()
	h.ServeHTTP(a, httptest.NewRequest("GET", "/", nil))
	h.ServeHTTP(b, httptest.NewRequest("GET", "/", nil))
	if a.Header().Get("X-Request-Id") == b.Header().Get("X-Request-Id") {
		t.Errorf("two requests got the same id %q", a.Header().Get("X-Request-Id"))
	}
}

var errInternal = catalog.Errorf(catalog.EINTERNAL, "boom")

// A client that hangs up is an INFO request line with status 499, never
// a "request failed" warning, even though the handler answers its
// cancelled work with a 503; when the handler had begun its answer,
// sent_status says which status went out before the cut.
func TestClientGoneLogged499(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		sent int // status written before the hang-up; 0: none
	}{{"before the answer", 0}, {"during the body", 200}} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&logs, nil))
			started := make(chan struct{})
			h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.sent != 0 {
					w.WriteHeader(tt.sent)
					w.Write([]byte("partial"))
					http.NewResponseController(w).Flush()
				}
				close(started)
				<-r.Context().Done()
				err := catalog.ContextError("list", r.Context().Err())
				httpx.LogError(log, r, err)
				if tt.sent == 0 {
					writeTestError(w, r, err)
				}
			}), log, writeTestError)
			finished := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(finished)
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/slow", nil)
			go func() {
				<-started
				cancel()
			}()
			if res, err := srv.Client().Do(req); err == nil {
				// The headers of the partial answer arrived; reading the
				// body sees the hang-up.
				<-started
				cancel()
				res.Body.Close()
			}
			<-finished
			lines := logLines(t, &logs)
			if len(lines) != 1 {
				t.Fatalf("got %d log lines (%v), want only the request line", len(lines), lines)
			}
			l := lines[0]
			if l["msg"] != "request" || l["level"] != "INFO" || l["status"] != float64(499) {
				t.Errorf("request line %v, want INFO with status 499", l)
			}
			if tt.sent == 0 && l["sent_status"] != nil {
				t.Errorf("sent_status %v, want none: nothing was sent", l["sent_status"])
			}
			if tt.sent != 0 && l["sent_status"] != float64(tt.sent) {
				t.Errorf("sent_status %v, want %d", l["sent_status"], tt.sent)
			}
		})
	}
}

// Durations are logged as KEY_ms, a number of milliseconds, in JSON and
// in text alike.
func TestLogOptionsMilliseconds(t *testing.T) {
	t.Parallel()
	var js, text bytes.Buffer
	for _, log := range []*slog.Logger{
		slog.New(slog.NewJSONHandler(&js, httpx.LogOptions(slog.LevelInfo))),
		slog.New(slog.NewTextHandler(&text, httpx.LogOptions(slog.LevelInfo))),
	} {
		log.Info("done", "duration", 1500*time.Microsecond, "took", 89729*time.Millisecond, "records", 3)
		log.Debug("hidden at info")
	}
	lines := logLines(t, &js)
	if len(lines) != 1 {
		t.Fatalf("JSON: got %d lines, want 1 (debug is below info)", len(lines))
	}
	l := lines[0]
	if l["duration_ms"] != 1.5 || l["took_ms"] != float64(89729) || l["duration"] != nil || l["took"] != nil || l["records"] != float64(3) {
		t.Errorf("JSON line %v, want duration_ms 1.5 and took_ms 89729", l)
	}
	if got := text.String(); !strings.Contains(got, "duration_ms=1.5 took_ms=89729 records=3") || strings.Contains(got, "hidden") {
		t.Errorf("text line %q, want duration_ms=1.5 took_ms=89729", got)
	}
}
