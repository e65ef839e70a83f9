package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/httpx"
)

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark
// measures WritePayload rather than a recorder's buffer.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

func BenchmarkNewPayload(b *testing.B) {
	body := jsonBody(8 << 10)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		httpx.NewPayload(body)
	}
}

func BenchmarkWritePayload(b *testing.B) {
	body := jsonBody(8 << 10)
	for _, bm := range []struct {
		name, accept string
		cached       bool
	}{
		{"plain", "", true},
		{"gzip-cached", "gzip", true},
		{"gzip-fresh", "gzip", false},
	} {
		b.Run(bm.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/api/clips", nil)
			if bm.accept != "" {
				r.Header.Set("Accept-Encoding", bm.accept)
			}
			p := httpx.NewPayload(body)
			w := &discardWriter{h: http.Header{}}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if !bm.cached {
					p = httpx.NewPayload(body)
				}
				clear(w.h)
				httpx.WritePayload(w, r, http.StatusOK, p)
			}
		})
	}
}

func BenchmarkRouter(b *testing.B) {
	rt := newTestRouter(b, false)
	r := httptest.NewRequest("GET", "/api/clips/17", nil)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		rt.ServeHTTP(w, r)
	}
}
