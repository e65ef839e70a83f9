package movieapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/hits"
	"catalog/internal/search/searchtest"
	"catalog/internal/testenv"
)

// BenchmarkDetailUnderBeacons serves movie details, as BenchmarkHotPaths'
// detail does, alone ("quiet") and while hit beacons arrive at a steady
// 1,000 a second from distinct addresses, each counted, with their
// batches written every second and caught up by the index ("beacons").
// cpu-ns/op is the process's CPU per detail, the beacons' own work and
// batch writes included: an upper bound on what details lose to them
// (issue 39: at most 5 %). Compare the two with
//
//	benchstat -col /mode out.txt
func BenchmarkDetailUnderBeacons(b *testing.B) {
	const movies = 10_000
	store := newTestStore(b)
	seedDemo(b, store, 1, movies)
	live := searchtest.Start(b, store, catalog.SearchMovies)
	for _, mode := range []string{"quiet", "beacons"} {
		b.Run("mode="+mode, func(b *testing.B) {
			counter := hits.New(store, hits.Options{Every: time.Second})
			h := cli.MovieService(cli.ServiceDeps{Store: store, Version: "bench", Hits: counter, MovieSearch: live})
			ctx, cancel := context.WithCancel(context.Background())
			var done []chan struct{}
			if mode == "beacons" {
				run, send := make(chan struct{}), make(chan struct{})
				done = append(done, run, send)
				go func() { counter.Run(ctx); close(run) }()
				go func() {
					defer close(send)
					tick := time.NewTicker(time.Millisecond)
					defer tick.Stop()
					for i := int64(0); ; i++ {
						select {
						case <-ctx.Done():
							return
						case <-tick.C:
						}
						r := httptest.NewRequest(http.MethodPost, "/api/movies/"+strconv.FormatInt(1+(i*31)%movies, 10)+"/hit", nil)
						r.RemoteAddr = "10." + strconv.FormatInt(i>>16&255, 10) + "." + strconv.FormatInt(i>>8&255, 10) + "." + strconv.FormatInt(i&255, 10) + ":1"
						w := httptest.NewRecorder()
						h.ServeHTTP(w, r)
						if w.Code != http.StatusNoContent {
							b.Errorf("beacon: %d %s", w.Code, w.Body)
							return
						}
					}
				}()
			}
			defer func() {
				cancel()
				for _, d := range done {
					<-d
				}
			}()
			b.ReportAllocs()
			b.SetParallelism(4)
			cpu := testenv.CPUTime()
			var next atomic.Int64
			next.Store(time.Now().UnixNano() % 1_000_000)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					target := fmt.Sprintf("/api/movies/%d", 1+(next.Add(1)*7919)%movies)
					r := httptest.NewRequest(http.MethodGet, target, nil)
					r.Header.Set("Accept-Encoding", "gzip")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != http.StatusOK {
						b.Errorf("%s: %d %s", target, w.Code, w.Body)
						return
					}
				}
			})
			b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
