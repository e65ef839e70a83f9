package movieapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/hits"
	"catalog/internal/search/searchtest"
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
						if !sendBeacon(b, h, 1+(i*31)%movies, i) {
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
			serveParallel(b, h, func(i int64) string { return fmt.Sprintf("/api/movies/%d", 1+(i*7919)%movies) })
		})
	}
}
