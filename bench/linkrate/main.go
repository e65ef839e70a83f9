// Command linkrate measures the link prober's throughput at its default
// settings (issue 41: 100,000 servers checked within a day against a
// local server that answers in 1 s). It seeds a fresh SQLite catalog
// with one server of one episode per movie, its HLS link on local
// servers that wait -delay before answering a playlist, runs the prober
// (linkcheck, defaults, private addresses allowed) until every server
// has been checked once, and prints the rate, the day's projection and
// the CPU time per check.
//
//	go run ./bench/linkrate -servers 2000 -hosts 1 -delay 1s
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
	"catalog/internal/linkcheck"
	"catalog/internal/sqlite"
	"catalog/internal/testenv"
)

func main() {
	servers := flag.Int("servers", 2000, "servers (movies of one server) to check")
	hosts := flag.Int("hosts", 1, "local hosts the links are spread over (127.0.0.1, 127.0.0.2, ...)")
	delay := flag.Duration("delay", time.Second, "how long a link server waits before it answers")
	master := flag.Bool("master", false, "links are master playlists (two requests a check)")
	flag.Parse()
	if err := run(context.Background(), *servers, *hosts, *delay, *master); err != nil {
		fmt.Fprintln(os.Stderr, "linkrate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, servers, hosts int, delay time.Duration, master bool) error {
	dir, err := os.MkdirTemp("", "linkrate")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(ctx, filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	var answered atomic.Int64
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		answered.Add(1)
		if master && r.URL.Query().Get("v") == "" {
			fmt.Fprint(w, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n"+r.URL.Path+"?v=1\n")
			return
		}
		fmt.Fprint(w, "#EXTM3U\n#EXTINF:10,\nseg0.ts\n#EXT-X-ENDLIST\n")
	})
	bases := make([]string, hosts)
	for i := range hosts {
		ln, err := net.Listen("tcp", "127.0.0."+strconv.Itoa(1+i)+":0")
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: slow}
		go srv.Serve(ln)
		defer srv.Close()
		bases[i] = "http://" + ln.Addr().String()
	}
	movies := make([]catalog.Movie, servers)
	for i := range movies {
		movies[i] = catalog.Movie{Name: "Movie " + strconv.Itoa(i), Episodes: []catalog.Server{{Name: "Main",
			Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: bases[i%hosts] + "/" + strconv.Itoa(i) + ".m3u8"}}}}}
		if err := movies[i].Normalize(); err != nil {
			return err
		}
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		return err
	}
	var checked, ok atomic.Int64
	all := make(chan struct{})
	p := linkcheck.New(st, linkcheck.Options{StartDelay: -1, Guard: fetchguard.Options{AllowPrivate: true},
		Checked: func(result string) {
			if result == "ok" {
				ok.Add(1)
			}
			if checked.Add(1) == int64(servers) {
				close(all)
			}
		}})
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	cpu0, start := testenv.CPUTime(), time.Now()
	go p.Run(ctx)
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-all:
			done = true
		case <-tick.C:
			fmt.Printf("%6.0f s: %d checked\n", time.Since(start).Seconds(), checked.Load())
		}
	}
	took, cpu := time.Since(start), time.Duration(testenv.CPUTime()-cpu0)
	rate := float64(servers) / took.Seconds()
	fmt.Printf("servers %d on %d host(s), answer after %v, master playlists %v\n", servers, hosts, delay, master)
	fmt.Printf("checked %d (%d ok) with %d requests in %.0f s: %.2f checks/s, %.0f a day\n",
		servers, ok.Load(), answered.Load(), took.Seconds(), rate, rate*86400)
	fmt.Printf("CPU %.2f s in all, %.0f µs a check (this process: prober, store and link servers)\n",
		cpu.Seconds(), float64(cpu.Microseconds())/float64(servers))
	return nil
}
