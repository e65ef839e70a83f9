package clipapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkColdDeepPage serves list pages that miss the response cache
// (page and limit vary over about 80,000 keys): the CPU of a cold page,
// gzip included, and the mean gzip body it sends (B/resp).
func BenchmarkColdDeepPage(b *testing.B) {
	const clips = 20_000
	h := benchService(b, clips)
	b.ReportAllocs()
	i := 0
	var bytes int64
	for b.Loop() {
		i++
		limit := 20 + (i*31)%81
		page := 1 + (i*7919)%(clips/limit)
		r := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/clips?page=%d&limit=%d", page, limit), nil)
		r.Header.Set("Accept-Encoding", "gzip")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("got %d", w.Code)
		}
		bytes += int64(w.Body.Len())
	}
	b.ReportMetric(float64(bytes)/float64(b.N), "B/resp")
}
