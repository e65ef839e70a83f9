package fetchguard_test

import (
	"context"
	"errors"
	"fmt"
	"io"
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

	"catalog/internal/fetchguard"
)

func TestPrivate(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":                "loopback",
		"127.255.0.9":              "loopback",
		"::1":                      "loopback",
		"::ffff:127.0.0.1":         "loopback",
		"10.1.2.3":                 "private",
		"172.16.0.1":               "private",
		"192.168.1.1":              "private",
		"::ffff:192.168.1.1":       "private",
		"169.254.169.254":          "link-local",
		"::ffff:169.254.169.254":   "link-local",
		"fe80::1":                  "link-local",
		"fc00::1":                  "unique-local",
		"fd12:3456::1":             "unique-local",
		"224.0.0.1":                "link-local",
		"ff02::1":                  "link-local",
		"ff0e::1":                  "multicast",
		"0.0.0.0":                  "unspecified",
		"::":                       "unspecified",
		"::ffff:0.0.0.0":           "unspecified",
		"0.1.2.3":                  "reserved",
		"100.64.0.1":               "reserved",
		"255.255.255.255":          "reserved",
		"fec0::1":                  "reserved",
		"64:ff9b::7f00:1":          "loopback", // NAT64 of 127.0.0.1
		"64:ff9b::a00:1":           "private",  // NAT64 of 10.0.0.1
		"2002:7f00:1::1":           "loopback", // 6to4 of 127.0.0.1
		"::7f00:1":                 "loopback", // IPv4-compatible 127.0.0.1
		"93.184.215.14":            "",
		"203.0.113.7":              "",
		"2606:2800:21f:cb07::1":    "",
		"::ffff:93.184.215.14":     "",
		"64:ff9b::5db8:d70e":       "", // NAT64 of a public address
		"2002:5db8:d70e::1":        "",
		"172.32.0.1":               "",
		"100.128.0.1":              "",
		"192.0.2.1":                "", // documentation ranges are not inside anyone's network
		"2001:db8::1":              "",
		"fe80::1%eth0":             "link-local",
		"::ffff:10.0.0.1":          "private",
		"::ffff:224.0.0.1":         "link-local",
		"::ffff:255.255.255.255":   "reserved",
		"::ffff:100.64.0.1":        "reserved",
		"::ffff:198.18.0.1":        "reserved",
		"::ffff:203.0.113.7":       "",
		"64:ff9b:1::1":             "reserved",
		"2002:a9fe:a9fe::1":        "link-local", // 6to4 of 169.254.169.254
		"::a9fe:a9fe":              "link-local",
		"fdff:ffff:ffff:ffff::1":   "unique-local",
		"febf:ffff::1":             "link-local",
		"ff01::1":                  "multicast",
		"::ffff:0:0":               "unspecified",
		"::ffff:ffff:ffff":         "reserved",
		"64:ff9b::8.8.8.8":         "",
		"64:ff9b::192.168.0.1":     "private",
		"::2":                      "reserved", // IPv4-compatible 0.0.0.2
		"2002:c0a8:101::":          "private",  // 6to4 of 192.168.1.1
		"2002:808:808::":           "",
		"169.254.0.0":              "link-local",
		"239.255.255.250":          "multicast",
		"fd00:ec2::254":            "unique-local", // AWS metadata over IPv6
		"::ffff:a9fe:a9fe":         "link-local",
		"100.100.100.200":          "reserved", // Alibaba Cloud metadata
		"0:0:0:0:0:ffff:127.0.0.1": "loopback",
	} {
		a, err := netip.ParseAddr(addr)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		if got := fetchguard.Private(a); got != want {
			t.Errorf("Private(%s): got %q, want %q", addr, got, want)
		}
	}
}

// target is a server the guard must keep the client away from; it
// counts what reaches it and answers with a secret.
type target struct {
	*httptest.Server
	hits atomic.Int64
}

func newTarget(t *testing.T) *target {
	t.Helper()
	tg := &target{}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"code":0,"msg":"S3CR3T-internal-token"}`)
	}))
	t.Cleanup(tg.Close)
	return tg
}

func (tg *target) port() string { return tg.URL[strings.LastIndexByte(tg.URL, ':')+1:] }

// wantRefused checks that err is the guard's refusal, worded in our
// words, and that the target heard nothing.
func wantRefused(t *testing.T, err error, tg *target) {
	t.Helper()
	var refused *fetchguard.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("got %v, want the guard's refusal", err)
	}
	if d := fetchguard.Describe(err); !strings.HasPrefix(d, "refused: private address") || strings.Contains(d, "S3CR3T") {
		t.Errorf("Describe: got %q, want our words", d)
	}
	if n := tg.hits.Load(); n != 0 {
		t.Errorf("the private server was reached %d times", n)
	}
}

func get(c *http.Client, url string) error {
	res, err := c.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, err = io.ReadAll(res.Body)
	return err
}

func TestRefusesPrivateAddresses(t *testing.T) {
	tg := newTarget(t)
	strict := fetchguard.NewClient(fetchguard.Options{ConnectTimeout: time.Second})
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0", "[::]",
		"169.254.169.254", "10.0.0.1", "192.168.0.1", "[fc00::1]", "[fe80::1]", "224.0.0.1"} {
		t.Run(host, func(t *testing.T) {
			wantRefused(t, get(strict, "http://"+host+":"+tg.port()+"/internal"), tg)
		})
	}
	// --fetch-allow-private lets them through.
	open := fetchguard.NewClient(fetchguard.Options{AllowPrivate: true})
	if err := get(open, tg.URL); err != nil || tg.hits.Load() != 1 {
		t.Fatalf("allowed: got %v and %d hits, want the answer", err, tg.hits.Load())
	}
}

// A source the client may reach (exempt, standing for a public host)
// redirects to a private address: the redirect dials again, and is
// refused the same way.
func TestRedirectToPrivateRefused(t *testing.T) {
	tg := newTarget(t)
	for _, to := range []string{tg.URL + "/internal", "http://localhost:" + tg.port() + "/internal"} {
		public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to, http.StatusFound)
		}))
		defer public.Close()
		c := fetchguard.NewClient(fetchguard.Options{Exempt: exempt(public)})
		wantRefused(t, get(c, public.URL+"/vod"), tg)
	}
}

func exempt(servers ...*httptest.Server) func(netip.AddrPort) bool {
	return func(ap netip.AddrPort) bool {
		for _, s := range servers {
			if ap.String() == strings.TrimPrefix(s.URL, "http://") {
				return true
			}
		}
		return false
	}
}

// dnsServer answers A and AAAA queries with the addresses answer gives
// for the n-th A query of a name (from 1); AAAA queries get the IPv6
// addresses of the same answer.
type dnsServer struct {
	conn   net.PacketConn
	mu     sync.Mutex
	asked  map[string]int
	answer func(name string, n int) []netip.Addr
}

func newDNS(t *testing.T, answer func(name string, n int) []netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	d := &dnsServer{conn: pc, asked: map[string]int{}, answer: answer}
	go d.serve()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dl net.Dialer
		return dl.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

func (d *dnsServer) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFrom(buf)
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
		var addrs []netip.Addr
		if q.Type == dnsmessage.TypeA {
			d.mu.Lock()
			d.asked[name]++
			k := d.asked[name]
			d.mu.Unlock()
			addrs = d.answer(name, k)
		} else {
			d.mu.Lock()
			k := max(d.asked[name], 1)
			d.mu.Unlock()
			addrs = d.answer(name, k)
		}
		b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
		b.EnableCompression()
		b.StartQuestions()
		b.Question(q)
		b.StartAnswers()
		rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}
		for _, a := range addrs {
			switch {
			case q.Type == dnsmessage.TypeA && a.Is4():
				b.AResource(rh, dnsmessage.AResource{A: a.As4()})
			case q.Type == dnsmessage.TypeAAAA && a.Is6():
				b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: a.As16()})
			}
		}
		msg, err := b.Finish()
		if err == nil {
			d.conn.WriteTo(msg, from)
		}
	}
}

// DNS rebinding: a name that resolves to a public address when it is
// first looked up (when a source is added, or by a check before the
// fetch) and to a private one afterwards is refused, because the guard
// checks the address the dialer connects to.
func TestDNSRebinding(t *testing.T) {
	tg := newTarget(t)
	public := netip.MustParseAddr("203.0.113.7") // TEST-NET-3: public, and never answers
	resolver := newDNS(t, func(name string, n int) []netip.Addr {
		switch {
		case name == "mapped.test":
			return []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}
		case n == 1:
			return []netip.Addr{public}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	c := fetchguard.NewClient(fetchguard.Options{Resolver: resolver, ConnectTimeout: 300 * time.Millisecond})

	// A guard that looked the name up and then let the dialer look it up
	// again would connect to 127.0.0.1 here. This one dials what it
	// checked: the public address, which does not answer.
	err := get(c, "http://first.test:"+tg.port()+"/internal")
	if err == nil || tg.hits.Load() != 0 {
		t.Fatalf("first fetch: got %v and %d hits, want a failure that never reached 127.0.0.1", err, tg.hits.Load())
	}
	// The name was public when checked; it is private when dialled.
	if got, err := resolver.LookupNetIP(context.Background(), "ip4", "second.test"); err != nil || len(got) != 1 || got[0] != public {
		t.Fatalf("lookup: got %v, %v; want %v", got, err, public)
	}
	wantRefused(t, get(c, "http://second.test:"+tg.port()+"/internal"), tg)
	// An AAAA answer in IPv4-mapped form is judged by its IPv4 address.
	wantRefused(t, get(c, "http://mapped.test:"+tg.port()+"/internal"), tg)
}

// No Referer reaches a redirect target: the source's address and its
// query (an API key) stay ours.
func TestNoReferer(t *testing.T) {
	var referer atomic.Value
	referer.Store("unset")
	to := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		referer.Store(r.Header.Get("Referer"))
		fmt.Fprint(w, "ok")
	}))
	defer to.Close()
	from := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+"/next", http.StatusFound)
	}))
	defer from.Close()
	c := fetchguard.NewClient(fetchguard.Options{Exempt: exempt(from, to), UserAgent: "catalog-test"})
	if err := get(c, from.URL+"/vod?apikey=SECRET"); err != nil {
		t.Fatal(err)
	}
	if got := referer.Load().(string); got != "" {
		t.Errorf("Referer: got %q, want none", got)
	}
}

func TestRedirectLimits(t *testing.T) {
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.String(), http.StatusFound)
	}))
	defer loop.Close()
	c := fetchguard.NewClient(fetchguard.Options{Exempt: exempt(loop)})
	if got := fetchguard.Describe(get(c, loop.URL)); got != "more than 5 redirects" {
		t.Errorf("loop: got %q", got)
	}
	file := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	}))
	defer file.Close()
	c = fetchguard.NewClient(fetchguard.Options{Exempt: exempt(file)})
	if got := fetchguard.Describe(get(c, file.URL)); got != "redirected to an address that is not http or https" {
		t.Errorf("file: got %q", got)
	}
}

func TestMaxBody(t *testing.T) {
	for _, announced := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if announced {
				w.Header().Set("Content-Length", "2049")
			}
			w.Write(make([]byte, 2049))
		}))
		c := fetchguard.NewClient(fetchguard.Options{AllowPrivate: true, MaxBody: 2048})
		res, err := c.Get(srv.URL)
		var n int
		if err == nil {
			var b []byte
			b, err = io.ReadAll(res.Body)
			n = len(b)
			res.Body.Close()
		}
		var large *fetchguard.TooLargeError
		if !errors.As(err, &large) || n > 2048 || fetchguard.Describe(err) != "answer is larger than 2 KiB" {
			t.Errorf("announced %v: got %d bytes, %v; want at most 2048 and too large", announced, n, err)
		}
		srv.Close()
	}
	// An answer of exactly the limit is whole.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 2048)) }))
	defer srv.Close()
	res, err := fetchguard.NewClient(fetchguard.Options{AllowPrivate: true, MaxBody: 2048}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || len(b) != 2048 {
		t.Errorf("exactly the limit: got %d bytes, %v", len(b), err)
	}
}

// A failed fetch is described in our words: a stranger's status line,
// whatever it says, is not repeated.
func TestDescribeOurWords(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			conn.Read(buf)
			fmt.Fprint(conn, "HTTP/1.1 599 \x1b]0;PWNED\x07S3CR3T\r\nContent-Length: 0\r\n\r\n")
			conn.Close()
		}
	}()
	res, err := fetchguard.NewClient(fetchguard.Options{AllowPrivate: true}).Get("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	got := (&fetchguard.StatusError{Code: res.StatusCode}).Error()
	if got != "answered 599 (a server error)" {
		t.Errorf("got %q", got)
	}
	if got := (&fetchguard.StatusError{Code: 502}).Error(); got != "answered 502 Bad Gateway" {
		t.Errorf("got %q", got)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "\x1b[31mevil", IsNotFound: true}, "the host's name is not known"},
		{fmt.Errorf(`malformed HTTP response "\x1b]0;PWNED"`), "request failed"},
		{context.DeadlineExceeded, "timed out"},
		{io.ErrUnexpectedEOF, "connection closed before the whole answer"},
	} {
		if got := fetchguard.Describe(tc.err); got != tc.want {
			t.Errorf("Describe(%v): got %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url   string
		allow bool
		want  string
	}{
		{"https://source.example/api.php/provide/vod/", false, ""},
		{"http://93.184.215.14/vod", false, ""},
		{"http://127.0.0.1:8081/api.php/provide/vod/", false, "refused: private address 127.0.0.1 (loopback)"},
		{"http://127.0.0.1:8081/api.php/provide/vod/", true, ""},
		{"http://localhost:8081/vod", false, "refused: private address (localhost)"},
		{"http://[::ffff:10.0.0.1]/vod", false, "refused: private address 10.0.0.1 (private)"},
		{"http://169.254.169.254/latest/meta-data/", false, "refused: private address 169.254.169.254 (link-local)"},
		{"ftp://source.example/", true, "must be an http:// or https:// address"},
	} {
		got := ""
		if err := fetchguard.CheckURL(tc.url, tc.allow); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckURL(%q, %v): got %q, want %q", tc.url, tc.allow, got, tc.want)
		}
	}
}

// Every IPv6 form that carries an IPv4 address (mapped, NAT64, 6to4)
// is judged as that address would be, wherever it is private.
func FuzzPrivateForms(f *testing.F) {
	for _, a := range []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "8.8.8.8", "0.0.0.0", "224.0.0.1", "100.64.0.1"} {
		b := netip.MustParseAddr(a).As4()
		f.Add(b[0], b[1], b[2], b[3])
	}
	f.Fuzz(func(t *testing.T, b0, b1, b2, b3 byte) {
		v4 := netip.AddrFrom4([4]byte{b0, b1, b2, b3})
		want := fetchguard.Private(v4)
		mapped := netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b0, 13: b1, 14: b2, 15: b3})
		nat64 := netip.AddrFrom16([16]byte{0: 0, 1: 0x64, 2: 0xff, 3: 0x9b, 12: b0, 13: b1, 14: b2, 15: b3})
		sixToFour := netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: b0, 3: b1, 4: b2, 5: b3, 15: 1})
		for _, a := range []netip.Addr{mapped, nat64, sixToFour} {
			if got := fetchguard.Private(a); (got == "") != (want == "") {
				t.Errorf("Private(%s) = %q, but Private(%s) = %q", a, got, v4, want)
			}
		}
	})
}

// TestInsideThroughNames tries to reach 127.0.0.1 and the cloud
// metadata address 169.254.169.254 through names, through redirects to
// them and to names of them, and by DNS rebinding (a name checked while
// it was public, fetched once it is private): every way is refused at
// dial time, and nothing inside hears a request.
func TestInsideThroughNames(t *testing.T) {
	tg := newTarget(t)
	public := netip.MustParseAddr("203.0.113.7")
	inside := map[string]netip.Addr{
		"loopback": netip.MustParseAddr("127.0.0.1"),
		"metadata": netip.MustParseAddr("169.254.169.254"),
	}
	resolver := newDNS(t, func(name string, n int) []netip.Addr {
		kind, to, _ := strings.Cut(name, ".")
		a, ok := inside[to]
		switch {
		case !ok:
			return nil
		case kind == "rebind" && n == 1:
			return []netip.Addr{public}
		}
		return []netip.Addr{a}
	})
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	t.Cleanup(redirector.Close)
	c := fetchguard.NewClient(fetchguard.Options{Resolver: resolver, ConnectTimeout: 300 * time.Millisecond, Exempt: exempt(redirector)})
	for _, to := range []string{"loopback", "metadata"} {
		port := "80"
		if to == "loopback" {
			port = tg.port() // the target listens there: a request that got through would be counted
		}
		for _, via := range []struct {
			name, url string
		}{
			{"a name", "http://name." + to + ":" + port + "/latest/meta-data/"},
			{"a redirect to the address", redirector.URL + "/?to=http://" + inside[to].String() + ":" + port + "/latest/meta-data/"},
			{"a redirect to a name", redirector.URL + "/?to=http://name." + to + ":" + port + "/latest/meta-data/"},
			{"rebinding", "http://rebind." + to + ":" + port + "/latest/meta-data/"},
		} {
			t.Run(to+"/"+via.name, func(t *testing.T) {
				if via.name == "rebinding" {
					// A check before the fetch sees a public address.
					got, err := resolver.LookupNetIP(context.Background(), "ip4", "rebind."+to)
					if err != nil || len(got) != 1 || got[0] != public {
						t.Fatalf("first lookup: got %v, %v; want %v", got, err, public)
					}
				}
				err := get(c, via.url)
				wantRefused(t, err, tg)
				var refused *fetchguard.RefusedError
				if errors.As(err, &refused) && refused.Addr != inside[to] {
					t.Errorf("refused %v, want %v", refused.Addr, inside[to])
				}
			})
		}
	}
}
