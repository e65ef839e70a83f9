package movieapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkCachedRead serves cached answers (list, legacy list, detail)
// through the whole handler, in parallel: the cost of the service's own
// layers (routing, headers, version check, cache hit, gzip choice)
// without the store's, in parallel as under load.
func BenchmarkCachedRead(b *testing.B) {
	store := newTestStore(b)
	addNumbered(b, store, 50)
	h := newService(b, store, nil)
	for _, target := range []string{"/api/movies", "/api/jav?pg=2", "/api/movies/7"} {
		get(b, h, target, http.StatusOK) // fill the cache
		b.Run(target, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(16) // many connections, as under load
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r := httptest.NewRequest(http.MethodGet, target, nil)
					r.Header.Set("Accept-Encoding", "gzip")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != http.StatusOK {
						b.Errorf("%s: %d", target, w.Code)
						return
					}
				}
			})
		})
	}
}
