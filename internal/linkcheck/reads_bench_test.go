package linkcheck_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/fetchguard"
	"catalog/internal/linkcheck"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// BenchmarkReadsWhileProbing serves a detail read and a list read
// through the whole movie service, as BenchmarkHotPaths (movieapi) does,
// with the link prober off and on at its default settings (5 requests a
// second, 2 at a time per host) over the same store, its links pointing
// at local servers that answer at once. The goal of issue 41: the
// prober adds at most 5 % CPU per request. Compare the two columns:
//
//	go test -run '^$' -bench ReadsWhileProbing -count 10 ./internal/linkcheck > probe.txt
//	benchstat -col /prober probe.txt
//
// The local link servers run in this process, so their CPU time counts
// against the prober: the figure overstates its cost.
func BenchmarkReadsWhileProbing(b *testing.B) {
	const movies = 10_000
	ctx := context.Background()
	st := testdb.Open(b)
	seedLocalLinks(b, st, movies)
	live := searchtest.Start(b, st, catalog.SearchMovies)
	for _, path := range []struct {
		name   string
		target func(i int64) string
	}{
		{"list", func(int64) string { return "/api/movies" }},
		{"detail", func(i int64) string { return fmt.Sprintf("/api/movies/%d", 1+(i*7919)%movies) }},
	} {
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("path=%s/prober=%s", path.name, map[bool]string{false: "off", true: "on"}[on]), func(b *testing.B) {
				if on {
					ctx, stop := context.WithCancel(ctx)
					p := linkcheck.New(st, linkcheck.Options{StartDelay: -1, Guard: fetchguard.Options{AllowPrivate: true}})
					done := make(chan struct{})
					go func() { p.Run(ctx); close(done) }()
					defer func() { stop(); <-done }()
				}
				h := cli.MovieService(cli.ServiceDeps{Store: st, Version: "bench", MovieSearch: live})
				b.ReportAllocs()
				b.SetParallelism(4)
				cpu := testenv.CPUTime()
				var next atomic.Int64
				next.Store(time.Now().UnixNano() % 1_000_000)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := next.Add(1)
						r := httptest.NewRequest(http.MethodGet, path.target(i), nil)
						r.Header.Set("Accept-Encoding", "gzip")
						w := httptest.NewRecorder()
						h.ServeHTTP(w, r)
						if w.Code != http.StatusOK {
							b.Errorf("%s: %d %s", path.target(i), w.Code, w.Body)
							return
						}
					}
				})
				b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// seedLocalLinks seeds n demo movies whose play links point at local
// servers, one per host of the demo's links: an HLS link answers a media
// playlist, an embed link a small page.
func seedLocalLinks(tb testing.TB, st catalog.MovieStore, n int) {
	tb.Helper()
	local := map[string]string{}
	for _, host := range []string{"https://player.example.com", "https://cdn.example.com", "https://backup.example.com"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".m3u8") {
				fmt.Fprint(w, "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg0.ts\n#EXT-X-ENDLIST\n")
				return
			}
			fmt.Fprint(w, "<!doctype html><video></video>")
		}))
		tb.Cleanup(srv.Close)
		local[host] = srv.URL
	}
	relink := func(link string) string {
		for host, to := range local {
			if rest, ok := strings.CutPrefix(link, host); ok {
				return to + rest
			}
		}
		return link
	}
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		tb.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Now().Add(-time.Hour), time.Second, 0)
	batch := make([]catalog.Movie, 0, n)
	for range n {
		m := g.Movie()
		for i := range m.Episodes {
			for j := range m.Episodes[i].Episodes {
				e := &m.Episodes[i].Episodes[j]
				e.LinkEmbed, e.LinkM3U8 = relink(e.LinkEmbed), relink(e.LinkM3U8)
			}
		}
		batch = append(batch, m)
	}
	if err := st.UpsertMovies(context.Background(), batch); err != nil {
		tb.Fatal(err)
	}
}
