package httpx_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"catalog/internal/httpx"
	"catalog/internal/metrics"
)

// Every layer of a service's chain (metrics, Common, the header policy)
// looks at the answer through one wrapper: the route gets a writer
// whose only layer is the Response over the server's own writer.
func TestOneWriterInTheChain(t *testing.T) {
	t.Parallel()
	policy := &httpx.Policy{Success: "public, max-age=60"}
	var inner http.ResponseWriter
	route := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner = w
		httpx.WriteJSON(w, r, http.StatusOK, []byte(`{}`))
	})
	h := metrics.New().Service("clips", "", httpx.Common(httpx.ReadDeadline(policy.Wrap(policy.Wrap(route)), time.Minute),
		slog.New(slog.DiscardHandler), writeTestError))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	rw, ok := inner.(*httpx.Response)
	if !ok {
		t.Fatalf("the route got a %T, want *httpx.Response", inner)
	}
	if rw.Unwrap() != http.ResponseWriter(rec) {
		t.Errorf("the Response wraps a %T, want the server's writer", rw.Unwrap())
	}
	if got := rec.Header().Get("Cache-Control"); got != "public, max-age=60" {
		t.Errorf("Cache-Control = %q, want the policy's", got)
	}
}

func TestResponseRecords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		write       func(w http.ResponseWriter)
		status, len int
	}{
		{"nothing", func(http.ResponseWriter) {}, 0, 0},
		{"implicit 200", func(w http.ResponseWriter) { io.WriteString(w, "hello") }, 200, 5},
		{"first status wins", func(w http.ResponseWriter) { w.WriteHeader(404); w.WriteHeader(500); io.WriteString(w, "no") }, 404, 2},
		{"1xx is not final", func(w http.ResponseWriter) { w.WriteHeader(103); w.WriteHeader(201) }, 201, 0},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		rw := httpx.Record(httptest.NewRecorder(), r)
		tt.write(rw)
		if rw.Status() != tt.status || rw.Bytes() != tt.len || rw.SentBeforeGone() != (tt.status != 0) {
			t.Errorf("%s: status %d, %d bytes, sent %v; want %d, %d", tt.name, rw.Status(), rw.Bytes(), rw.SentBeforeGone(), tt.status, tt.len)
		}
		if again := httpx.Record(rw, r); again != rw {
			t.Errorf("%s: Record of a Response made another", tt.name)
		}
	}
}

// OnHeader hooks run once, in order, with the final status, before the
// headers go out.
func TestResponseOnHeader(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	rw := httpx.Record(rec, httptest.NewRequest("GET", "/", nil))
	var calls []int
	rw.OnHeader(func(status int, h http.Header) { calls = append(calls, status); h.Set("X-One", "1") })
	rw.OnHeader(func(status int, h http.Header) { calls = append(calls, -status); h.Set("X-Two", h.Get("X-One")) })
	rw.WriteHeader(http.StatusEarlyHints)
	io.WriteString(rw, "body")
	io.WriteString(rw, "more")
	if len(calls) != 2 || calls[0] != 200 || calls[1] != -200 {
		t.Errorf("hooks ran as %v, want [200 -200]", calls)
	}
	if rec.Header().Get("X-Two") != "1" {
		t.Errorf("X-Two = %q, want the second hook to see the first's header", rec.Header().Get("X-Two"))
	}
}

// A held-back status and its body never reach the client; the answer
// the handler writes next does.
func TestResponseHoldBack(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	rw := httpx.Record(rec, httptest.NewRequest("GET", "/", nil))
	held := rw.HoldBack(http.StatusRequestedRangeNotSatisfiable)
	http.Error(rw, "plain text", http.StatusRequestedRangeNotSatisfiable)
	if !held() || rw.Status() != 0 {
		t.Fatalf("held %v, status %d; want held and no status", held(), rw.Status())
	}
	rw.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
	io.WriteString(rw, `{"code":0}`)
	if rec.Code != 416 || rec.Body.String() != `{"code":0}` || rw.Status() != 416 {
		t.Errorf("got %d %q (recorded %d), want the handler's own 416", rec.Code, rec.Body, rw.Status())
	}

	rec = httptest.NewRecorder()
	rw = httpx.Record(rec, httptest.NewRequest("GET", "/", nil))
	held = rw.HoldBack(http.StatusRequestedRangeNotSatisfiable)
	io.WriteString(rw, "ok")
	if held() || rec.Code != 200 || rec.Body.String() != "ok" {
		t.Errorf("got held %v, %d %q; want another status to pass", held(), rec.Code, rec.Body)
	}
}
