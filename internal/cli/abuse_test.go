package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/testdb"
)

// The abuse suite: a real `catalog serve` (SQLite by default, PostgreSQL
// with CATALOG_TEST_ENGINE=postgres) is sent a table of hostile requests,
// written as raw bytes on a TCP connection so that nothing in Go's client
// cleans them up first. For each one it asserts what the contract asks of a
// service on the public internet: never a 5xx, the service's error shape
// for every error, an answer without waiting for a server timeout, and
// both health endpoints still 200 afterwards.

// abuseDeadline is how long any hostile request may take to be answered:
// half the shortest of serve's own timeouts (ReadHeaderTimeout, 10 s), so
// a request that the server left waiting for a timeout fails, while a
// loaded CI machine does not. How fast an answer comes is a speed
// target, and those live in benchmarks (bench/run.sh), not here.
const abuseDeadline = 5 * time.Second

// hostile is one request of the table.
type hostile struct {
	name    string
	service string // "clips" or "movies"
	method  string
	target  string // the raw request target, sent as it is
	header  map[string]string
	body    string
	session bool  // send the administrator's session cookie
	want    []int // the statuses allowed; empty: any 2xx-4xx
}

// rawReply is one raw exchange.
type rawReply struct {
	status  int
	header  http.Header
	body    []byte
	elapsed time.Duration
}

// sendRaw writes one HTTP/1.1 request byte for byte and reads the answer.
func sendRaw(tb testing.TB, addr, method, target string, header map[string]string, body string) rawReply {
	tb.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		tb.Fatalf("dial %s: %v", addr, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, addr)
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	if body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	start := time.Now()
	if _, err := io.WriteString(conn, b.String()); err != nil {
		tb.Fatalf("%s %.80s: write: %v", method, target, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		tb.Fatalf("%s %.80s: no HTTP answer: %v", method, target, err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return rawReply{status: resp.StatusCode, header: resp.Header, body: got, elapsed: time.Since(start)}
}

// checkShape reports whether an error answer is in its service's shape.
func checkShape(service, target string, r rawReply) error {
	ct := r.header.Get("Content-Type")
	if service == "clips" && !strings.HasPrefix(target, "/api/") && strings.HasPrefix(ct, "text/html") {
		return nil // the HTML pages answer their errors as pages
	}
	if !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	switch service {
	case "clips":
		var e struct {
			Error *struct {
				Status  int    `json:"status"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil || e.Error.Status != r.status || e.Error.Message == "" {
			return fmt.Errorf("body %.200q is not the clip error shape for %d", r.body, r.status)
		}
	default:
		var e struct {
			Code *int   `json:"code"`
			Msg  string `json:"msg"`
		}
		if err := json.Unmarshal(r.body, &e); err != nil || e.Code == nil || *e.Code != 0 || e.Msg == "" {
			return fmt.Errorf("body %.200q is not the movie error shape", r.body)
		}
	}
	return nil
}

func words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%03x", i%4096) + string(rune('a'+i/4096))
	}
	return strings.Join(w, "+")
}

func TestAbuse(t *testing.T) {
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN()}
	if r := run(t, env, instancePassword+"\n", "admin", "create", "--username", "root"); r.err != nil {
		t.Fatalf("admin create: %v %s", r.err, r.stderr)
	}
	srv := startServe(t, env, append(serveArgs(), "--snapshot-every", "1h")...)
	addr := map[string]string{"clips": srv.addrs.Clips.String(), "movies": srv.addrs.Movies.String()}
	clips := "http://" + addr["clips"]
	cookie := sessionCookie(t, login(t, clips, "root", instancePassword))
	created := call(t, http.MethodPost, clips+"/api/clips", `{"title":"victim","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}`, cookie)
	if created.status != http.StatusCreated {
		t.Fatalf("create: %d %s", created.status, created.body)
	}

	json1MiB := `{"title":"` + strings.Repeat("a", 1<<20) + `","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}`
	nested := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	nestedObj := strings.Repeat(`{"a":`, 50_000) + "1" + strings.Repeat("}", 50_000)
	jsonCT := map[string]string{"Content-Type": "application/json"}
	q300 := strings.Repeat("x", 300)
	q17 := words(17)

	cases := []hostile{
		// Search text (contract 2): too long, too many words, control
		// characters, invalid UTF-8, on every endpoint that takes it.
		{name: "q 100 KB of distinct words", service: "clips", method: "GET", target: "/api/clips?q=" + words(20_000), want: []int{400, 414, 431}},
		{name: "q 300 chars", service: "clips", method: "GET", target: "/api/clips?q=" + q300, want: []int{400}},
		{name: "q 17 words", service: "clips", method: "GET", target: "/api/clips?q=" + q17, want: []int{400}},
		{name: "q NUL", service: "clips", method: "GET", target: "/api/clips?q=abc%00def", want: []int{400}},
		{name: "q invalid UTF-8", service: "clips", method: "GET", target: "/api/clips?q=%ff%fe", want: []int{400}},
		{name: "q DEL", service: "clips", method: "GET", target: "/api/clips?q=a%7Fb", want: []int{400}},
		{name: "movies q NUL", service: "movies", method: "GET", target: "/api/movies?q=abc%00def", want: []int{400}},
		{name: "movies q 300 chars", service: "movies", method: "GET", target: "/api/movies?q=" + q300, want: []int{400}},
		{name: "movies q 100 KB", service: "movies", method: "GET", target: "/api/movies?q=" + words(20_000), want: []int{400, 414, 431}},
		{name: "jav wd 17 words", service: "movies", method: "GET", target: "/api/jav?wd=" + q17, want: []int{400}},
		{name: "jav wd NUL", service: "movies", method: "GET", target: "/api/jav?wd=%00", want: []int{400}},
		{name: "jav wd invalid UTF-8", service: "movies", method: "GET", target: "/api/jav?wd=%c3%28", want: []int{400}},
		{name: "home q NUL", service: "clips", method: "GET", target: "/?q=abc%00def", want: []int{400}},
		{name: "home q 300 chars", service: "clips", method: "GET", target: "/?q=" + q300, want: []int{400}},
		{name: "admin q 17 words", service: "clips", method: "GET", target: "/admin?q=" + q17, session: true, want: []int{400}},
		{name: "invalid UTF-8 in platform", service: "clips", method: "GET", target: "/api/clips?platform=%ff", want: []int{400}},
		{name: "invalid UTF-8 in fields", service: "movies", method: "GET", target: "/api/movies?fields=%ff", want: []int{400}},

		// Request line and headers over 64 KiB.
		{name: "70 KB header", service: "clips", method: "GET", target: "/api/clips", header: map[string]string{"X-Junk": strings.Repeat("a", 70<<10)}, want: []int{431}},
		{name: "70 KB header movies", service: "movies", method: "GET", target: "/api/movies", header: map[string]string{"X-Junk": strings.Repeat("a", 70<<10)}, want: []int{431}},

		// Bodies.
		{name: "1 MiB JSON body", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: json1MiB, session: true, want: []int{413}},
		{name: "1 MiB JSON body anonymous", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: json1MiB, want: []int{401, 413}},
		{name: "deeply nested array", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: nested, session: true, want: []int{400, 413}},
		{name: "deeply nested object", service: "clips", method: "PATCH", target: "/api/clips/1", header: jsonCT, body: nestedObj, session: true, want: []int{400, 413}},
		{name: "wrong content type", service: "clips", method: "POST", target: "/api/clips", header: map[string]string{"Content-Type": "text/plain"}, body: `{"title":"x"}`, session: true, want: []int{415}},
		{name: "missing content type", service: "clips", method: "POST", target: "/api/clips", body: `{"title":"x"}`, session: true, want: []int{415}},
		{name: "content type with junk params", service: "clips", method: "POST", target: "/api/clips", header: map[string]string{"Content-Type": "application/json; charset=latin1;;boundary"}, body: `{}`, session: true, want: []int{400, 415}},
		{name: "invalid UTF-8 in JSON string", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: "{\"title\":\"a\xff\xfeb\",\"iframe_url\":\"https://youtu.be/dQw4w9WgXcQ\"}", session: true, want: []int{400}},
		{name: "NUL in JSON title", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: `{"title":"a\u0000b","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}`, session: true, want: []int{400}},
		{name: "JSON not an object", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: `"title"`, session: true, want: []int{400}},
		{name: "two JSON objects", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: `{"title":"a","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}{}`, session: true, want: []int{400}},
		{name: "huge number id member", service: "clips", method: "POST", target: "/api/clips", header: jsonCT, body: `{"id":1e999999}`, session: true, want: []int{400}},
		{name: "form login 1 MiB", service: "clips", method: "POST", target: "/admin/login", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, body: "username=" + strings.Repeat("a", 1<<20) + "&password=x", want: []int{400, 401, 413}},

		// Path ids.
		{name: "signed id +", service: "clips", method: "GET", target: "/api/clips/+1", want: []int{400}},
		{name: "signed id -", service: "clips", method: "GET", target: "/api/clips/-1", want: []int{400}},
		{name: "overlong id", service: "clips", method: "GET", target: "/api/clips/" + strings.Repeat("9", 400), want: []int{400}},
		{name: "id past int64", service: "clips", method: "GET", target: "/api/clips/9223372036854775808", want: []int{400}},
		{name: "movie signed id", service: "movies", method: "GET", target: "/api/movies/-5", want: []int{400}},
		{name: "movie overlong id", service: "movies", method: "GET", target: "/api/movies/" + strings.Repeat("1", 400), want: []int{400}},
		{name: "jav id past int64", service: "movies", method: "GET", target: "/api/jav/99999999999999999999", want: []int{400}},
		{name: "public page signed id", service: "clips", method: "GET", target: "/clips/-1", want: []int{400, 404}},
		{name: "%2F in clip id", service: "clips", method: "GET", target: "/api/clips/1%2F2", want: []int{400, 404}},
		{name: "%2F in movie path", service: "movies", method: "GET", target: "/api/movies%2F1", want: []int{400, 404}},
		{name: "dot segments", service: "clips", method: "GET", target: "/api/../../etc/passwd", want: []int{301, 307, 308, 400, 404}},
		{name: "broken escape", service: "clips", method: "GET", target: "/api/clips?q=%zz", want: []int{400}},
		{name: "raw semicolon", service: "movies", method: "GET", target: "/api/movies?page=1;limit=5", want: []int{400}},

		// Repeated and odd query parameters.
		{name: "repeated page", service: "clips", method: "GET", target: "/api/clips?page=1&page=abc", want: []int{200, 400}},
		{name: "repeated limit", service: "movies", method: "GET", target: "/api/movies?limit=1&limit=-1", want: []int{200, 400}},
		{name: "1000 repeated ids", service: "movies", method: "GET", target: "/api/jav?ids=" + strings.Repeat("1,", 1000) + "1", want: []int{400}},
		{name: "page past int64", service: "clips", method: "GET", target: "/api/clips?page=99999999999999999999", want: []int{400}},
		{name: "huge h", service: "movies", method: "GET", target: "/api/jav?h=9999999999999", want: []int{400}},
		{name: "fields 10 KB", service: "movies", method: "GET", target: "/api/movies?fields=" + strings.Repeat("title,", 1700), want: []int{200, 400}},

		// The snapshot: a plain-form Range at the very end.
		{name: "snapshot suffix range", service: "movies", method: "GET", target: "/api/movies/snapshot", header: map[string]string{"Range": "bytes=-1"}, want: []int{206, 200, 503}},
		{name: "snapshot many ranges", service: "movies", method: "GET", target: "/api/movies/snapshot", header: map[string]string{"Range": "bytes=" + strings.Repeat("0-0,", 500) + "0-0"}, want: []int{200, 206, 416, 503}},
		{name: "snapshot huge range", service: "movies", method: "GET", target: "/api/movies/snapshot", header: map[string]string{"Range": "bytes=99999999999999999999-"}, want: []int{200, 416, 503}},
	}

	// Every method on every route, and an unknown path, on both services.
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "BREW"}
	routes := map[string][]string{
		"clips": {"/api/health", "/api/clips", "/api/clips/1", "/api/platforms", "/admin/login", "/admin/logout", "/admin",
			"/admin/clips", "/admin/clips/1", "/admin/clips/1/edit", "/admin/clips/1/delete", "/admin/cover", "/admin/movies",
			"/", "/clips/1", "/no/such/path"},
		"movies": {"/api/health", "/api/movies", "/api/movies/1", "/api/movies/snapshot", "/api/jav", "/api/jav/1", "/no/such/path"},
	}
	for service, paths := range routes {
		for _, p := range paths {
			for _, m := range methods {
				cases = append(cases, hostile{name: m + " " + p, service: service, method: m, target: p})
			}
		}
	}

	// The snapshot is built in the background at start; wait for it so
	// that the Range cases read a real file.
	srv.stderr.waitLog(t, 1, "snapshot built")

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			header := map[string]string{}
			for k, v := range c.header {
				header[k] = v
			}
			if c.session {
				header["Cookie"] = cookie.Name + "=" + cookie.Value
			}
			r := sendRaw(t, addr[c.service], c.method, c.target, header, c.body)
			if r.status >= 500 {
				t.Errorf("status %d, want no 5xx; body %.300q", r.status, r.body)
			}
			if len(c.want) > 0 && !slices.Contains(c.want, r.status) {
				t.Errorf("status %d, want one of %v; body %.300q", r.status, c.want, r.body)
			}
			if r.status >= 400 && c.method != "HEAD" && r.status != http.StatusRequestHeaderFieldsTooLarge {
				if err := checkShape(c.service, c.target, r); err != nil {
					t.Errorf("status %d: %v", r.status, err)
				}
			}
			if r.elapsed > abuseDeadline {
				t.Errorf("answered after %s, want within %s", r.elapsed, abuseDeadline)
			}
			for _, leak := range []string{"goroutine ", ".go:", "SELECT ", "sqlite", "pgx", "panic"} {
				if strings.Contains(string(r.body), leak) {
					t.Errorf("body shows %q: %.300q", leak, r.body)
				}
			}
		})
	}

	// A 431 comes from net/http itself, in its own plain-text form: it is
	// answered before any handler runs. Check it is at least not slow
	// and the service stays up.

	t.Run("slow clients trickling headers", func(t *testing.T) {
		// Twenty connections send a header a byte at a time while the
		// services go on answering everyone else at once.
		var wg, trickling sync.WaitGroup
		stop := make(chan struct{})
		for i := 0; i < 20; i++ {
			wg.Add(1)
			trickling.Add(1)
			go func(i int) {
				defer wg.Done()
				sent := sync.OnceFunc(trickling.Done) // after the first byte, or on giving up
				defer sent()
				service := []string{"clips", "movies"}[i%2]
				conn, err := net.Dial("tcp", addr[service])
				if err != nil {
					return
				}
				defer conn.Close()
				line := "GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("s", 1000)
				for j := 0; j < len(line); j++ {
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
					if _, err := conn.Write([]byte{line[j]}); err != nil {
						return
					}
					sent()
				}
			}(i)
		}
		trickling.Wait()
		for _, service := range []string{"clips", "movies"} {
			for _, target := range []string{"/api/health", "/api/" + service} {
				r := sendRaw(t, addr[service], "GET", target, nil, "")
				if r.status != http.StatusOK || r.elapsed > abuseDeadline {
					t.Errorf("%s %s while slow clients trickle: %d after %s", service, target, r.status, r.elapsed)
				}
			}
		}
		close(stop)
		wg.Wait()
	})

	// Afterwards both services are healthy and the victim clip is intact.
	for service, a := range addr {
		if r := sendRaw(t, a, "GET", "/api/health", nil, ""); r.status != http.StatusOK {
			t.Errorf("%s /api/health after the abuse: %d %s", service, r.status, r.body)
		}
	}
	if r := sendRaw(t, addr["clips"], "GET", "/api/clips/1", nil, ""); r.status != http.StatusOK || !strings.Contains(string(r.body), `"victim"`) {
		t.Errorf("the clip made before the abuse: %d %s", r.status, r.body)
	}
}
