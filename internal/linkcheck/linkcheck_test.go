package linkcheck

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
	"catalog/internal/testdb"
)

// secret is a server inside our network: nothing may reach it.
type secret struct {
	*httptest.Server
	hits atomic.Int64
}

func newSecret(t *testing.T) *secret {
	s := &secret{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		fmt.Fprint(w, "#EXTM3U\n# internal\n")
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *secret) port() string { return s.URL[strings.LastIndexByte(s.URL, ':')+1:] }

// public is the test's stand-in for hosts on the Internet: the guard
// lets its address through (Exempt) while every other private address
// stays refused.
func newPublic(t *testing.T, to *secret) *httptest.Server {
	mux := http.NewServeMux()
	playlist := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }
	}
	mux.Handle("/ok.m3u8", playlist("#EXTM3U\n#EXTINF:10,\nseg0.ts\n"))
	mux.Handle("/bom.m3u8", playlist("\ufeff#EXTM3U\n#EXTINF:10,\nseg0.ts\n"))
	mux.Handle("/html.m3u8", playlist("<html>gone</html>"))
	mux.Handle("/master-ok.m3u8", playlist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/ok.m3u8\n"))
	mux.Handle("/v/ok.m3u8", playlist("#EXTM3U\n"))
	mux.Handle("/master-dead.m3u8", playlist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/missing.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv/ok.m3u8\n"))
	mux.Handle("/master-private.m3u8", playlist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n"+to.URL+"/v.m3u8\n"))
	mux.HandleFunc("/embed/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<iframe>") })
	mux.HandleFunc("/embed/gone", http.NotFound)
	mux.HandleFunc("/embed/broken", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/to-private", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+"/internal.m3u8", http.StatusFound)
	})
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/to-ok", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok.m3u8", http.StatusFound) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// newDNS is a resolver whose answers the test gives: answer returns the
// addresses of the n-th A query of a name (from 1).
func newDNS(t *testing.T, answer func(name string, n int) []netip.Addr) *net.Resolver {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	var mu sync.Mutex
	asked := map[string]int{}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			name := strings.TrimSuffix(q.Name.String(), ".")
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.StartQuestions()
			b.Question(q)
			b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				mu.Lock()
				asked[name]++
				k := asked[name]
				mu.Unlock()
				for _, a := range answer(name, k) {
					b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET}, dnsmessage.AResource{A: a.As4()})
				}
			}
			if msg, err := b.Finish(); err == nil {
				pc.WriteTo(msg, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// TestProbe checks movies whose links answer, fail, hang, are not
// playlists or lead inside our network, through names, redirects and
// DNS rebinding, and checks what is stored.
func TestProbe(t *testing.T) {
	ctx := context.Background()
	sec := newSecret(t)
	pub := newPublic(t, sec)
	pubAddr := netip.MustParseAddrPort(strings.TrimPrefix(pub.URL, "http://"))
	loopback := netip.MustParseAddr("127.0.0.1")
	resolver := newDNS(t, func(name string, n int) []netip.Addr {
		switch name {
		case "cdn.test":
			return []netip.Addr{loopback} // the public server (exempt by its port)
		case "inside.test":
			return []netip.Addr{loopback} // a name for the secret server
		case "rebind.test":
			if n == 1 {
				return []netip.Addr{netip.MustParseAddr("203.0.113.7")} // public, and never answers
			}
			return []netip.Addr{loopback}
		}
		return nil
	})
	pubHost := "http://cdn.test:" + pub.URL[strings.LastIndexByte(pub.URL, ':')+1:]
	st := testdb.Open(t)
	p := New(st, Options{Rate: 1000, StartDelay: -1, Guard: guardOptions(resolver, pubAddr)})

	cases := []struct {
		name       string
		m3u8       string
		embed      string
		wantOK     bool
		wantResult string
	}{
		{name: "playlist", m3u8: pubHost + "/ok.m3u8", wantOK: true, wantResult: "ok"},
		{name: "playlist with a BOM", m3u8: pubHost + "/bom.m3u8", wantOK: true, wantResult: "ok"},
		{name: "master and its first variant", m3u8: pubHost + "/master-ok.m3u8", wantOK: true, wantResult: "ok"},
		{name: "master whose first variant is gone", m3u8: pubHost + "/master-dead.m3u8", wantResult: "status"},
		{name: "master whose first variant is inside", m3u8: pubHost + "/master-private.m3u8", wantResult: "refused"},
		{name: "not a playlist", m3u8: pubHost + "/html.m3u8", wantResult: "not_playlist"},
		{name: "playlist 404", m3u8: pubHost + "/none.m3u8", wantResult: "status"},
		{name: "redirect to a playlist", m3u8: pubHost + "/to-ok", wantOK: true, wantResult: "ok"},
		{name: "hls before embed", m3u8: pubHost + "/html.m3u8", embed: pubHost + "/embed/ok", wantResult: "not_playlist"},
		{name: "embed", embed: pubHost + "/embed/ok", wantOK: true, wantResult: "ok"},
		{name: "embed 404", embed: pubHost + "/embed/gone", wantResult: "status"},
		{name: "embed 502", embed: pubHost + "/embed/broken", wantResult: "status"},
		{name: "hangs", embed: pubHost + "/hang", wantResult: "timeout"},
		{name: "redirect to a private address", m3u8: pubHost + "/to-private", wantResult: "refused"},
		{name: "redirect to the metadata address", m3u8: pubHost + "/to-metadata", wantResult: "refused"},
		{name: "loopback written out", m3u8: sec.URL + "/x.m3u8", wantResult: "refused"},
		{name: "metadata address written out", embed: "http://169.254.169.254/latest/meta-data/", wantResult: "refused"},
		{name: "a name for a private address", m3u8: "http://inside.test:" + sec.port() + "/x.m3u8", wantResult: "refused"},
		{name: "DNS rebinding", m3u8: "http://rebind.test:" + sec.port() + "/x.m3u8"},
	}
	movies := make([]catalog.Movie, len(cases))
	for i, c := range cases {
		movies[i] = catalog.Movie{Name: c.name, Episodes: []catalog.Server{{Name: "Main",
			Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: c.embed, LinkM3U8: c.m3u8}}}}}
		if err := movies[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	tick := make(chan time.Time)
	close(tick) // no rate limit here
	var mu sync.Mutex
	results := map[string]int{}
	p.opts.Checked = func(r string) { mu.Lock(); results[r]++; mu.Unlock() }
	// Twice: a failed check is retried once before a server is dead.
	for round := 1; round <= 2; round++ {
		claimed, err := st.ClaimLinkChecks(ctx, time.Now().Add(time.Duration(round-1)*30*time.Hour), lease, 100)
		if err != nil || len(claimed) != len(cases) {
			t.Fatalf("round %d: claimed %d, %v; want %d", round, len(claimed), err, len(cases))
		}
		res, _ := p.checkAll(ctx, claimed, tick)
		if err := st.SaveLinkChecks(ctx, res); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			m, err := st.GetMovie(ctx, movies[i].ID)
			if err != nil {
				t.Fatal(err)
			}
			h := catalog.HealthOf(m.Health, "Main")
			want := catalog.LinkOK
			switch {
			case !c.wantOK && round == 1:
				want = catalog.LinkUnchecked // the first failure is retried before it counts
			case !c.wantOK:
				want = catalog.LinkDead
			}
			if got := h.State(); got != want {
				t.Errorf("round %d, %s: got %s (%+v), want %s", round, c.name, got, h, want)
			}
		}
	}
	if n := sec.hits.Load(); n != 0 {
		t.Errorf("the server inside was reached %d times, want 0", n)
	}
	for i, c := range cases {
		if c.wantResult == "" {
			continue
		}
		m, _ := st.GetMovie(ctx, movies[i].ID)
		h := catalog.HealthOf(m.Health, "Main")
		if c.wantOK != (h.Problem == "") || (c.wantResult == "refused" && !strings.Contains(h.Problem, "refused")) {
			t.Errorf("%s: problem %q, want result %s", c.name, h.Problem, c.wantResult)
		}
	}
	// Six refused twice, the rebinding name once (its first answer is a
	// public address that does not answer: a timeout, or an error where
	// the network has no route to it).
	if results["refused"] != 13 || results["timeout"]+results["error"] != 3 || results["not_playlist"] != 4 || results["ok"] != 10 {
		t.Errorf("results by kind: got %v, want 13 refused, 3 timeouts (or errors), 4 not playlists, 10 ok", results)
	}
}

// guardOptions is the guard of a test: names through resolver, the
// public server's address let through, everything else inside refused,
// a short timeout in place of the 10 s for the hanging server.
func guardOptions(resolver *net.Resolver, public netip.AddrPort) fetchguard.Options {
	return fetchguard.Options{Resolver: resolver, ConnectTimeout: 300 * time.Millisecond, Timeout: 500 * time.Millisecond,
		Exempt: func(ap netip.AddrPort) bool { return ap == public }}
}

// TestPoliteness: at most PerHost requests at a time to one host, and
// at most Rate a second in all.
func TestPoliteness(t *testing.T) {
	ctx := context.Background()
	var inflight, most atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		select { // hold the request long enough for others to pile up
		case <-time.After(30 * time.Millisecond):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "#EXTM3U\n")
	}))
	t.Cleanup(srv.Close)
	st := testdb.Open(t)
	var movies []catalog.Movie
	for i := range 12 {
		m := catalog.Movie{Name: fmt.Sprint("m", i), Episodes: []catalog.Server{{Name: "Main",
			Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: srv.URL + "/" + fmt.Sprint(i) + ".m3u8"}}}}}
		if err := m.Normalize(); err != nil {
			t.Fatal(err)
		}
		movies = append(movies, m)
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	const rate = 40
	p := New(st, Options{Rate: rate, StartDelay: -1, Guard: fetchguard.Options{AllowPrivate: true}})
	tick := time.NewTicker(p.every)
	defer tick.Stop()
	start := time.Now()
	if n, err := p.round(ctx, 100, tick.C); n != 12 || err != nil {
		t.Fatalf("round: got %d, %v; want 12 movies", n, err)
	}
	if got := most.Load(); got != 2 {
		t.Errorf("requests at a time to one host: got %d, want 2", got)
	}
	// 12 requests at 40 a second: the 12th waits for the 12th tick.
	if took, least := time.Since(start), 11*time.Second/rate; took < least {
		t.Errorf("12 requests took %v, want at least %v at %d a second", took, least, rate)
	}
}
