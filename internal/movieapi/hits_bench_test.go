package movieapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/hits"
	"catalog/internal/search/searchtest"
)

// BenchmarkHitBeacon sends beacons through the whole handler, in
// parallel, from a new client address each (so each counts), over
// 1,000 movies: the existence read, the limiter and the counter, with
// the batches written as they come due. The cost per beacon includes
// its share of the batch writes.
func BenchmarkHitBeacon(b *testing.B) {
	store := newTestStore(b)
	addNumbered(b, store, 1000)
	counter := hits.New(store, hits.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { counter.Run(ctx); close(done) }()
	h := cli.MovieService(cli.ServiceDeps{Store: store, Hits: counter, MovieSearch: searchtest.Start(b, store, catalog.SearchMovies)})
	var n atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			if !sendBeacon(b, h, 1+i%1000, i) {
				return
			}
		}
	})
	b.StopTimer()
	cancel()
	<-done
	var total int64
	err := store.ExportMovies(context.Background(), func(m *catalog.Movie) error { total += m.Hits.Total; return nil })
	if err != nil {
		b.Fatal(err)
	}
	if total != n.Load() {
		b.Errorf("stored %d hits, sent %d", total, n.Load())
	}
}

// sendBeacon posts movie id's hit beacon to h from the i-th client
// address of 10.0.0.0/8 (a new address per i, so each counts once), and
// reports whether it was answered 204.
func sendBeacon(b *testing.B, h http.Handler, id, i int64) bool {
	r := httptest.NewRequest(http.MethodPost, "/api/movies/"+strconv.FormatInt(id, 10)+"/hit", nil)
	r.RemoteAddr = "10." + strconv.FormatInt(i>>16&255, 10) + "." + strconv.FormatInt(i>>8&255, 10) + "." + strconv.FormatInt(i&255, 10) + ":1"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent {
		b.Errorf("beacon: %d %s", w.Code, w.Body)
		return false
	}
	return true
}
