package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/metrics"
)

// BenchmarkService is the cost of the metrics wrapper per request: the
// same route table with metrics off (a nil Registry: no wrapper) and on.
func BenchmarkService(b *testing.B) {
	for _, c := range []struct {
		name string
		m    *metrics.Registry
	}{{"off", nil}, {"on", metrics.New()}} {
		b.Run(c.name, func(b *testing.B) {
			h := service(c.m)
			req := httptest.NewRequest(http.MethodGet, "/api/things/17", nil)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}

// discard is a ResponseWriter that keeps nothing, so that the benchmark
// measures the handlers.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}
