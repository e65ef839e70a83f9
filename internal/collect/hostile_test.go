package collect_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/fetchguard"
	"catalog/internal/testdb"
)

// Each test points a run at a local server that misbehaves on purpose.
// Every run must end with a clear error, recorded as the source's last
// run, with the pages before the failure written and nothing of the
// failing page.

// shortLimits keep the tests fast; the defaults are pinned by value in
// TestDefaultLimits.
var shortLimits = collect.Limits{ConnectTimeout: time.Second, PageTimeout: 300 * time.Millisecond, RetryWait: time.Millisecond}

// local lets runs reach the test servers, which listen on 127.0.0.1
// (--fetch-allow-private).
var local = fetchguard.Options{AllowPrivate: true}

// vodPage is a JSON detail page of n records numbered from first.
func vodPage(page, pageCount, first, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"code":1,"msg":"ok","page":%d,"pagecount":%d,"limit":"20","total":%d,"list":[`, page, pageCount, pageCount*n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		id := first + i
		fmt.Fprintf(&b, `{"vod_id":%d,"vod_name":"Movie %d","vod_year":"2020","type_name":"Drama","vod_play_from":"iframe","vod_play_url":"Full$https://play.example.com/%d"}`, id, id, id)
	}
	b.WriteString("]}")
	return b.String()
}

type hostile struct {
	st  catalog.Store
	srv *httptest.Server
}

// newHostile starts h and adds it as the source "bad".
func newHostile(t *testing.T, h http.HandlerFunc) *hostile {
	t.Helper()
	st := testdb.Open(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	src, err := catalog.NewSource("bad", srv.URL+"/api.php/provide/vod/", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddSource(context.Background(), &src); err != nil {
		t.Fatal(err)
	}
	return &hostile{st: st, srv: srv}
}

// run collects and checks that the run stopped with an error holding
// want, recorded as the source's last run, after pages pages and with
// movies movies in the catalog.
func (h *hostile) run(t *testing.T, limits collect.Limits, want string, pages, movies int) catalog.SourceRun {
	t.Helper()
	ctx := context.Background()
	run, _, err := collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: h.srv.URL + "/api.php/provide/vod/", Limits: limits, Fetch: local})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("run error: got %v, want one holding %q", err, want)
	}
	src, err2 := h.st.SourceByName(ctx, "bad")
	if err2 != nil {
		t.Fatal(err2)
	}
	if src.LastRun.Err != err.Error() || src.LastRun.Pages != pages || run.Pages != pages {
		t.Fatalf("recorded run: got %+v, want error %q after %d pages", src.LastRun, err.Error(), pages)
	}
	if n, err := h.st.CountMovies(ctx); err != nil || n != int64(movies) {
		t.Fatalf("movies: got %d (%v), want %d", n, err, movies)
	}
	return run
}

// wait holds a handler until the client gives up (or a minute passes,
// which fails the test by its timeout message).
func wait(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

func TestSlowHeaders(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) { wait(r) })
	h.run(t, shortLimits, "page 1: no whole answer within 300ms", 0, 0)
}

func TestSlowBody(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body := vodPage(1, 1, 1, 3)
		w.Write([]byte(body[:len(body)/2]))
		w.(http.Flusher).Flush()
		wait(r)
	})
	h.run(t, shortLimits, "page 1: no whole answer within 300ms", 0, 0)
}

// A page that times out halfway through a run: the pages before it
// stay written, none of it is.
func TestTimeoutHalfway(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		pg, _ := strconv.Atoi(r.URL.Query().Get("pg"))
		if pg == 3 {
			wait(r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, vodPage(pg, 5, pg*10, 4))
	})
	run := h.run(t, shortLimits, "page 3: no whole answer within 300ms", 2, 8)
	if run.Read != 8 || run.Written != 8 {
		t.Errorf("run: got %d read, %d written, want 8 and 8", run.Read, run.Written)
	}
}

// measure returns the bytes the Go heap allocated while fn ran.
func measure(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A 50 MB answer stops the run at 16 MiB, with or without a
// Content-Length, and what the run allocates stays bounded by the page
// limit, not the answer.
func TestHugeAnswer(t *testing.T) {
	const size = 50_000_000
	for _, announced := range []bool{false, true} {
		t.Run("Content-Length="+strconv.FormatBool(announced), func(t *testing.T) {
			h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if announced {
					w.Header().Set("Content-Length", strconv.Itoa(size))
				}
				chunk := []byte(`{"code":1,"list":[` + strings.Repeat(" ", 64<<10-18))
				for sent := 0; sent < size; sent += len(chunk) {
					if _, err := w.Write(chunk[:min(len(chunk), size-sent)]); err != nil {
						return
					}
				}
			})
			alloc := measure(func() { h.run(t, collect.Limits{}, "page 1: answer is larger than 16 MiB", 0, 0) })
			t.Logf("allocated %d MiB while refusing a 50 MB answer", alloc>>20)
			if alloc > 48<<20 {
				t.Errorf("allocated %d MiB, want at most 48 MiB", alloc>>20)
			}
		})
	}
}

// A pagecount that never ends: the run stops at the page limit.
func TestEndlessPages(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		pg, _ := strconv.Atoi(r.URL.Query().Get("pg"))
		fmt.Fprint(w, vodPage(pg, pg+1, pg, 1))
	})
	limits := shortLimits
	limits.MaxPages = 7
	h.run(t, limits, "stopped after 7 pages, the most a run reads; the source has 8", 7, 7)
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, path, contentType, body, want string
	}{
		{"JSON cut short", "", "application/json", `{"code":1,"page":1,"pagecount":1,"list":[{"vod_id":1,"vod_na`, "page 1: answer is not the JSON of a provide API (broken JSON"},
		{"JSON of something else", "", "application/json", `{"status":"ok"}`, "page 1: answer has no code"},
		{"code 0", "", "application/json", `{"code":0,"msg":"key expired"}`, "page 1: answered code 0, not 1"},
		{"code text", "", "application/json", `{"code":"S3CR3T","msg":"key expired"}`, "page 1: answered a code that is not 1"},
		{"XML cut short", "at/xml", "text/xml", `<?xml version="1.0"?><rss version="5.1"><list page="1" pagecount="1"><video><id>1</id>`, "page 1: answer is not the XML of a provide API"},
		{"XML of something else", "at/xml", "text/xml", `<feed><entry/></feed>`, "page 1: answer is not <rss><list> of a provide API"},
		{"XML broken", "at/xml", "text/xml", "<rss>\n<list><S3CR3T></list></rss>", "page 1: answer is not the XML of a provide API (broken XML at line 2)"},
		{"wrong Content-Type", "", "image/png", vodPage(1, 1, 1, 1), "page 1: answer's Content-Type is not a JSON type"},
		{"XML served for JSON", "", "application/xml", `<rss><list/></rss>`, "page 1: answer's Content-Type is not a JSON type"},
		{"HTML error page", "", "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><head><title>Site under maintenance</title></head><body>back soon</body></html>",
			`page 1: answer is not the JSON of a provide API (broken JSON at byte 1): an HTML page`},
		{"pagecount text", "", "application/json", `{"code":1,"page":1,"pagecount":"S3CR3T","list":[]}`, "page 1: pagecount is not a count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				fmt.Fprint(w, tc.body)
			})
			ctx := context.Background()
			url := h.srv.URL + "/api.php/provide/vod/" + tc.path
			_, _, err := collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: url, Limits: shortLimits, Fetch: local})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "S3CR3T") || strings.Contains(err.Error(), "maintenance") {
				t.Fatalf("got %v, want an error holding %q and nothing the source wrote", err, tc.want)
			}
			if src, _ := h.st.SourceByName(ctx, "bad"); src.LastRun.Err != err.Error() {
				t.Errorf("recorded error: got %q, want %q", src.LastRun.Err, err.Error())
			}
		})
	}
}

func TestErrorStatus(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html><title>502 Bad Gateway</title></html>")
	})
	h.run(t, shortLimits, "page 1: answered 502 Bad Gateway", 0, 0)
}

// Redirects: five are followed, a sixth is not, and never to another
// scheme.
func TestRedirects(t *testing.T) {
	redirector := func(hops int, last string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("hop"))
			if n < hops {
				q := r.URL.Query()
				q.Set("hop", strconv.Itoa(n+1))
				http.Redirect(w, r, r.URL.Path+"?"+q.Encode(), http.StatusFound)
				return
			}
			if last != "" {
				http.Redirect(w, r, last, http.StatusFound)
				return
			}
			fmt.Fprint(w, vodPage(1, 1, 1, 2))
		}
	}
	t.Run("five", func(t *testing.T) {
		h := newHostile(t, redirector(5, ""))
		run, _, err := collect.Run(context.Background(), h.st, collect.Options{Source: "bad", URL: h.srv.URL + "/vod", Limits: shortLimits, Fetch: local})
		if err != nil || run.Written != 2 {
			t.Fatalf("got %+v, %v; want 2 written", run, err)
		}
	})
	t.Run("loop", func(t *testing.T) {
		h := newHostile(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.String(), http.StatusFound) })
		h.run(t, shortLimits, "page 1: more than 5 redirects", 0, 0)
	})
	t.Run("six", func(t *testing.T) {
		h := newHostile(t, redirector(6, ""))
		h.run(t, shortLimits, "page 1: more than 5 redirects", 0, 0)
	})
	t.Run("other scheme", func(t *testing.T) {
		h := newHostile(t, redirector(1, "file:///etc/passwd"))
		h.run(t, shortLimits, `page 1: redirected to an address that is not http or https`, 0, 0)
	})
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	st := testdb.Open(t)
	_, _, err := collect.Run(context.Background(), st, collect.Options{Source: "gone", URL: addr + "/vod", Limits: shortLimits, Fetch: local})
	if err == nil || !strings.Contains(err.Error(), "page 1: ") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("got %v, want page 1 refused", err)
	}
}

// A run cancelled midway (serve stopping) ends with an error, recorded,
// and keeps the pages it wrote.
func TestCancelledRun(t *testing.T) {
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("pg") != "1" {
			wait(r)
			return
		}
		fmt.Fprint(w, vodPage(1, 3, 1, 2))
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	limits := collect.Limits{PageTimeout: time.Minute}
	run, _, err := collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: h.srv.URL + "/vod", Limits: limits, Fetch: local,
		Progress: func(collect.Progress) { cancel() }})
	if err == nil || !strings.Contains(err.Error(), "context canceled") || run.Pages != 1 || run.Written != 2 {
		t.Fatalf("got %+v, %v; want 1 page written, then cancelled", run, err)
	}
	if src, _ := h.st.SourceByName(context.Background(), "bad"); src.LastRun.Err != err.Error() {
		t.Errorf("recorded: %q, want %q", src.LastRun.Err, err.Error())
	}
}

// Finding 1 of issue 35: a source that redirects to an internal address
// (here another server on 127.0.0.1, holding a secret) is refused at the
// redirect's dial, and the run's error, the recorded one shown on the
// Sources page, holds our words and none of the internal answer. The
// source itself is exempt: it stands for a public host.
func TestRedirectToInternalRefused(t *testing.T) {
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"code":0,"msg":"S3CR3T-internal-token"}`)
	}))
	defer internal.Close()
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/internal", http.StatusFound)
	})
	sourceAddr := netip.MustParseAddrPort(strings.TrimPrefix(h.srv.URL, "http://"))
	guard := fetchguard.Options{Exempt: func(ap netip.AddrPort) bool { return ap == sourceAddr }}
	ctx := context.Background()
	_, _, err := collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: h.srv.URL + "/vod", Limits: shortLimits, Fetch: guard})
	want := "page 1: refused: private address 127.0.0.1 (loopback)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if src, _ := h.st.SourceByName(ctx, "bad"); src.LastRun.Err != want {
		t.Errorf("recorded: got %q, want %q", src.LastRun.Err, want)
	}
}

// Without --fetch-allow-private, a source on a private address is
// refused before anything is sent.
func TestPrivateSourceRefused(t *testing.T) {
	var hits atomic.Int64
	h := newHostile(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	_, _, err := collect.Run(context.Background(), h.st, collect.Options{Source: "bad", URL: h.srv.URL + "/vod", Limits: shortLimits})
	if err == nil || err.Error() != "page 1: refused: private address 127.0.0.1 (loopback)" || hits.Load() != 0 {
		t.Fatalf("got %v and %d requests, want the refusal and none", err, hits.Load())
	}
}

// Finding 2 of issue 35: a page holds at most collect.MaxPageRecords
// records whatever its bytes. A page of a million tiny records, in JSON
// or XML, stops the run before they take memory; a page of exactly the
// limit is read.
func TestManyRecordsInOnePage(t *testing.T) {
	many := func(format string, n int) string {
		var b strings.Builder
		if format == "xml" {
			b.WriteString(`<?xml version="1.0"?><rss><list page="1" pagecount="1">`)
			for range n {
				b.WriteString("<video/>")
			}
			b.WriteString("</list></rss>")
			return b.String()
		}
		b.WriteString(`{"code":1,"page":1,"pagecount":1,"list":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("{}")
		}
		b.WriteString("]}")
		return b.String()
	}
	for _, format := range []string{"json", "xml"} {
		t.Run(format, func(t *testing.T) {
			path := "/vod"
			if format == "xml" {
				path = "/vod/at/xml"
			}
			body := many(format, 1_000_000)
			h := newHostile(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) })
			ctx := context.Background()
			var err error
			alloc := measure(func() {
				_, _, err = collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: h.srv.URL + path, Limits: shortLimits, Fetch: local})
			})
			if want := "page 1: page holds more than 1000 records"; err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
			t.Logf("allocated %d MiB refusing a page of a million records (%d bytes)", alloc>>20, len(body))
			if alloc > 64<<20 {
				t.Errorf("allocated %d MiB, want at most 64 MiB", alloc>>20)
			}
			// The limit itself is read: every record rejected (no name),
			// none stops the run.
			body = many(format, collect.MaxPageRecords)
			run, _, err := collect.Run(ctx, h.st, collect.Options{Source: "bad", URL: h.srv.URL + path, Limits: shortLimits, Fetch: local})
			if err != nil || run.Read != collect.MaxPageRecords {
				t.Fatalf("a page of %d: got %+v, %v", collect.MaxPageRecords, run, err)
			}
		})
	}
}

// A run asks for pages of collect.PageSize records unless its address
// asks for a size a page may hold.
func TestPageSizeAsked(t *testing.T) {
	for addr, want := range map[string]string{"/vod": "100", "/vod?pagesize=50": "50", "/vod?pagesize=5000": "100", "/vod?pagesize=x": "100"} {
		var asked atomic.Value
		h := newHostile(t, func(w http.ResponseWriter, r *http.Request) {
			asked.Store(r.URL.Query().Get("pagesize"))
			fmt.Fprint(w, vodPage(1, 1, 1, 1))
		})
		if _, _, err := collect.Run(context.Background(), h.st, collect.Options{Source: "bad", URL: h.srv.URL + addr, Limits: shortLimits, Fetch: local}); err != nil {
			t.Fatal(err)
		}
		if got := asked.Load(); got != want {
			t.Errorf("%s: asked pagesize %v, want %s", addr, got, want)
		}
	}
}
