package httpx_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"catalog/internal/httpx"
)

// health is the members of a health answer; TestHealthOK pins the whole
// body once, the other tests compare these.
type health struct{ Status, Version, Database, Search string }

func decodeHealth(t testing.TB, rec *httptest.ResponseRecorder) health {
	t.Helper()
	var h health
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
	return h
}

func checkHealth(t testing.TB, ping func(context.Context) error, version string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	httpx.Health(ping, func() bool { return true }, version).ServeHTTP(rec, httptest.NewRequest("GET", "/api/health", nil))
	return rec
}

// The search member (contract 3.4): "building" until the index is
// ready; ?ready is 503 with Retry-After until then, the plain check
// stays 200 (the database answers); both are never cached.
func TestHealthSearchReadiness(t *testing.T) {
	t.Parallel()
	ok := func(context.Context) error { return nil }
	tests := []struct {
		ready      bool
		target     string
		wantStatus int
		wantBody   health
	}{
		{false, "/api/health", 200, health{"ok", "v", "ok", "building"}},
		{false, "/api/health?ready", 503, health{"unavailable", "v", "ok", "building"}},
		{false, "/api/health?ready=1", 503, health{"unavailable", "v", "ok", "building"}},
		{true, "/api/health?ready", 200, health{"ok", "v", "ok", "ready"}},
		{true, "/api/health", 200, health{"ok", "v", "ok", "ready"}},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		httpx.Health(ok, func() bool { return tt.ready }, "v").ServeHTTP(rec, httptest.NewRequest("GET", tt.target, nil))
		if got := decodeHealth(t, rec); rec.Code != tt.wantStatus || got != tt.wantBody {
			t.Errorf("%s, ready %v: got %d %+v, want %d %+v", tt.target, tt.ready, rec.Code, got, tt.wantStatus, tt.wantBody)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", tt.target, got)
		}
		if got, want := rec.Header().Get("Retry-After") != "", tt.wantStatus == 503; got != want {
			t.Errorf("%s, ready %v: Retry-After present %v, want %v", tt.target, tt.ready, got, want)
		}
	}
}

func TestHealthOK(t *testing.T) {
	t.Parallel()
	rec := checkHealth(t, func(context.Context) error { return nil }, "1.2.3")
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200", rec.Code)
	}
	if got, want := rec.Body.String(), `{"status":"ok","version":"1.2.3","database":"ok","search":"ready"}`; got != want {
		t.Errorf("body = %s, want %s", got, want)
	}
	if rec.Header().Get("ETag") == "" || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("headers = %v, want ETag and JSON content type", rec.Header())
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store (contract 3.4)", got)
	}
}

func TestHealthVersionEscaped(t *testing.T) {
	t.Parallel()
	rec := checkHealth(t, func(context.Context) error { return nil }, `v1 "dev"`)
	if got := decodeHealth(t, rec).Version; got != `v1 "dev"` {
		t.Errorf("version = %q, want %q", got, `v1 "dev"`)
	}
}

func TestHealthPingGetsDeadline(t *testing.T) {
	t.Parallel()
	var deadline time.Time
	var ok bool
	start := time.Now()
	checkHealth(t, func(ctx context.Context) error {
		deadline, ok = ctx.Deadline()
		return nil
	}, "v")
	if !ok || deadline.After(start.Add(httpx.HealthTimeout+100*time.Millisecond)) {
		t.Errorf("ping deadline = %v (set %v), want at most %v after the request", deadline.Sub(start), ok, httpx.HealthTimeout)
	}
}

func checkUnavailable(t testing.TB, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503", rec.Code)
	}
	if got, want := decodeHealth(t, rec), (health{"unavailable", "v", "error", "ready"}); got != want {
		t.Errorf("body = %+v, want %+v", got, want)
	}
	// The cause stays in the log: the answer names no host or error.
	if strings.Contains(rec.Body.String(), "10.0.0.5") || strings.Contains(rec.Body.String(), "deadline") {
		t.Errorf("body shows the cause: %s", rec.Body)
	}
	if got := rec.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
}

func TestHealthPingFails(t *testing.T) {
	t.Parallel()
	rec := checkHealth(t, func(context.Context) error {
		return errors.New("dial tcp 10.0.0.5:5432: connection refused")
	}, "v")
	checkUnavailable(t, rec)
}

// A database that does not answer within HealthTimeout is unavailable.
// These two tests wait HealthTimeout each, in parallel.
func TestHealthPingTimesOut(t *testing.T) {
	t.Parallel()
	rec := checkHealth(t, func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}, "v")
	checkUnavailable(t, rec)
}

// A driver that ignores the context must not hold the health check
// past HealthTimeout either.
func TestHealthPingIgnoresContext(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		done <- checkHealth(t, func(context.Context) error {
			<-release
			return nil
		}, "v")
	}()
	select {
	case rec := <-done:
		checkUnavailable(t, rec)
	case <-time.After(httpx.HealthTimeout + 5*time.Second):
		t.Fatal("health check still waiting for a ping that ignores its context")
	}
}
