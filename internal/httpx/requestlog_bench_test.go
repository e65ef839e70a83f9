package httpx_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/httpx"
	"catalog/internal/testenv"
)

// BenchmarkRequestLog serves a cached 2 KiB answer through Common, which
// writes one JSON log line per request (as serve logs, to io.Discard
// here): the share of a cheap request that its log line costs.
func BenchmarkRequestLog(b *testing.B) {
	p := httpx.NewPayload(jsonBody(2 << 10))
	p.Gzipped()
	log := slog.New(jsonLogHandler(io.Discard, httpx.LogOptions(slog.LevelInfo)))
	h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.WritePayload(w, r, http.StatusOK, p)
	}), log, func(http.ResponseWriter, *http.Request, error) {})
	r := httptest.NewRequest("GET", "/api/movies/7", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	cpu := testenv.CPUTime()
	for b.Loop() {
		clear(w.h)
		h.ServeHTTP(w, r)
	}
	b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
}
