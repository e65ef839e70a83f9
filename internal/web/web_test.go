package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
	"catalog/internal/web"
)

// site is the public pages as the clip service serves them (its whole
// assembly, cli.ClipService), on a fresh store (internal/testdb).
type site struct {
	store   catalog.Store
	handler http.Handler
}

func newSite(t testing.TB) *site {
	t.Helper()
	store := testdb.Open(t)
	return &site{store: store, handler: cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Logger: testLogger(t)})}
}

func (s *site) addClip(t testing.TB, c catalog.Clip) catalog.Clip {
	t.Helper()
	if c.IframeURL == "" {
		c.IframeURL = "https://www.youtube.com/embed/dQw4w9WgXcQ"
	}
	if err := s.store.CreateClip(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// get answers a request and returns the response with its body read.
func (s *site) get(t testing.TB, target string, header ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestStoredTextIsEscaped(t *testing.T) {
	s := newSite(t)
	evil := `<script>alert(1)</script>`
	c := s.addClip(t, catalog.Clip{
		Title:    evil,
		Actor:    `"><img src=x onerror=alert(2)>`,
		Notes:    evil,
		CoverURL: `javascript:alert(3)`,
	})
	for _, target := range []string{"/", "/clips/" + fmt.Sprint(c.ID), "/?q=" + "%3Cscript%3E"} {
		t.Run(target, func(t *testing.T) {
			res, body := s.get(t, target)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status: got %d, want 200", res.StatusCode)
			}
			for _, bad := range []string{"<script>alert", "<img src=x", "javascript:alert"} {
				if strings.Contains(body, bad) {
					t.Errorf("body contains %q unescaped", bad)
				}
			}
			if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
				t.Errorf("body does not show the escaped title")
			}
		})
	}
}

// csp parses a Content-Security-Policy into directive -> value.
func csp(h string) map[string]string {
	m := map[string]string{}
	for d := range strings.SplitSeq(h, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		m[name] = value
	}
	return m
}

func TestPageHeaders(t *testing.T) {
	s := newSite(t)
	yt := s.addClip(t, catalog.Clip{Title: "YouTube clip"})
	other := s.addClip(t, catalog.Clip{Title: "Other host", IframeURL: "https://Player.Example.org:8443/v/1?a=b"})
	odd := s.addClip(t, catalog.Clip{Title: "Odd host", IframeURL: "https://a_b.example/v"})
	tests := []struct {
		target   string
		status   int
		frameSrc string
	}{
		{"/", 200, "'none'"},
		{"/?page=0", 400, "'none'"},
		{"/clips/999", 404, "'none'"},
		{fmt.Sprintf("/clips/%d", yt.ID), 200, strings.Join(web.PlayerHosts, " ")},
		{fmt.Sprintf("/clips/%d", other.ID), 200, strings.Join(web.PlayerHosts, " ") + " https://player.example.org:8443"},
		// A host the policy cannot carry safely gets no player at all.
		{fmt.Sprintf("/clips/%d", odd.ID), 200, "'none'"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			res, _ := s.get(t, tt.target)
			if res.StatusCode != tt.status {
				t.Fatalf("status: got %d, want %d", res.StatusCode, tt.status)
			}
			h := res.Header
			want := map[string]string{
				"Content-Type":           "text/html; charset=utf-8",
				"X-Frame-Options":        "DENY",
				"X-Content-Type-Options": "nosniff",
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s: got %q, want %q", k, got, v)
				}
			}
			policy := csp(h.Get("Content-Security-Policy"))
			wantPolicy := map[string]string{
				"default-src":     "'self'",
				"script-src":      "'self'",
				"style-src":       "'self'",
				"img-src":         "'self' https: data:",
				"frame-src":       tt.frameSrc,
				"frame-ancestors": "'none'",
				"base-uri":        "'none'",
				"form-action":     "'self'",
				"object-src":      "'none'",
			}
			for k, v := range wantPolicy {
				if got := policy[k]; got != v {
					t.Errorf("CSP %s: got %q, want %q", k, got, v)
				}
			}
			if tt.status == 200 && h.Get("Cache-Control") != "no-cache" {
				t.Errorf("Cache-Control: got %q, want no-cache", h.Get("Cache-Control"))
			}
			if tt.status != 200 && h.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control: got %q, want no-store", h.Get("Cache-Control"))
			}
		})
	}
}

func TestPageETag(t *testing.T) {
	s := newSite(t)
	s.addClip(t, catalog.Clip{Title: "One"})
	res, body := s.get(t, "/")
	tag := res.Header.Get("ETag")
	if !regexp.MustCompile(`^"[^"]+"$`).MatchString(tag) {
		t.Fatalf("ETag: got %q, want a strong tag", tag)
	}
	res, body2 := s.get(t, "/", "If-None-Match", tag)
	if res.StatusCode != http.StatusNotModified || body2 != "" {
		t.Errorf("If-None-Match: got %d with %d bytes, want 304 and no body", res.StatusCode, len(body2))
	}
	s.addClip(t, catalog.Clip{Title: "Two"})
	res, _ = s.get(t, "/", "If-None-Match", tag)
	if res.StatusCode != http.StatusOK {
		t.Errorf("after a change: got %d, want 200", res.StatusCode)
	}
	res, gz := s.get(t, "/", "Accept-Encoding", "gzip")
	if len(body) > httpx.GzipMinSize && res.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("Content-Encoding: got %q, want gzip for a %d-byte page", res.Header.Get("Content-Encoding"), len(gz))
	}
}

func TestBadRequestsGetFriendlyPages(t *testing.T) {
	s := newSite(t)
	tests := []struct {
		target string
		status int
		text   string
	}{
		{"/?page=0", 400, "page must be a positive integer"},
		{"/?page=abc", 400, "page must be a positive integer"},
		{"/?page=1.5", 400, "page must be a positive integer"},
		{"/?limit=-1", 400, "limit must be a positive integer"},
		{"/?limit=", 400, "limit must be a positive integer"},
		{"/?platform=Nope", 400, "platform must be one of: JAV, JAVJAV"},
		{"/clips/abc", 400, "id must be a positive integer"},
		{"/clips/0", 400, "id must be a positive integer"},
		{"/clips/99999999999999999999", 400, "id must be a positive integer"},
		{"/clips/12345", 404, "There is no clip number 12345"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			res, body := s.get(t, tt.target)
			if res.StatusCode != tt.status {
				t.Errorf("status: got %d, want %d", res.StatusCode, tt.status)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("Content-Type: got %q, want an HTML page", ct)
			}
			if !strings.Contains(body, tt.text) {
				t.Errorf("body does not contain %q:\n%s", tt.text, body)
			}
			if !strings.Contains(body, `href="/"`) {
				t.Errorf("error page has no way back to the catalog")
			}
		})
	}
}

func TestUnknownPathsStayWithTheService(t *testing.T) {
	s := newSite(t)
	for _, target := range []string{"/nope", "/static/nope.css", "/clips/1/extra"} {
		res, body := s.get(t, target)
		if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: got %d %q %s, want the service's JSON 404", target, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: got %d Allow %q, want 405 Allow \"GET, HEAD\"", rec.Code, rec.Header().Get("Allow"))
	}
}

// links returns the hrefs of the anchors whose text contains label.
func links(body, label string) []string {
	var out []string
	re := regexp.MustCompile(`<a [^>]*href="([^"]*)"[^>]*>([^<]*)</a>`)
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		if strings.Contains(m[2], label) {
			out = append(out, strings.ReplaceAll(m[1], "&amp;", "&"))
		}
	}
	return out
}

func TestPaging(t *testing.T) {
	s := newSite(t)
	for i := 1; i <= 25; i++ {
		platform := "JAV"
		if i%5 == 0 {
			platform = "ทวิต"
		}
		s.addClip(t, catalog.Clip{Title: fmt.Sprintf("Sunset number %02d", i), Platform: platform})
	}
	s.addClip(t, catalog.Clip{Title: "Something else", Platform: "JAV"})

	t.Run("middle page keeps the search in its links", func(t *testing.T) {
		_, body := s.get(t, "/?q=sunset&limit=10&page=2")
		if !strings.Contains(body, "Showing 11–20 of 25 clips") {
			t.Errorf("no result count for page 2 of 25")
		}
		if got, want := links(body, "Previous"), []string{"/?limit=10&q=sunset"}; !equal(got, want) {
			t.Errorf("previous: got %q, want %q", got, want)
		}
		if got, want := links(body, "Next"), []string{"/?limit=10&page=3&q=sunset"}; !equal(got, want) {
			t.Errorf("next: got %q, want %q", got, want)
		}
		if !strings.Contains(body, `aria-current="page"`) {
			t.Errorf("the current page is not marked")
		}
		// Newest first: clip 25 is first, so page 2 starts with 15.
		first := strings.Index(body, "Sunset number 15")
		if first < 0 || strings.Contains(body, "Sunset number 16") || strings.Contains(body, "Sunset number 05") {
			t.Errorf("page 2 does not hold clips 15 to 06")
		}
		if strings.Contains(body, "Something else") {
			t.Errorf("the search let a non-matching title through")
		}
	})
	t.Run("last page has no next link", func(t *testing.T) {
		_, body := s.get(t, "/?q=sunset&limit=10&page=3")
		if got := links(body, "Next"); len(got) != 0 {
			t.Errorf("next on the last page: got %q, want none", got)
		}
	})
	t.Run("platform filter with Thai value", func(t *testing.T) {
		_, body := s.get(t, "/?platform=%E0%B8%97%E0%B8%A7%E0%B8%B4%E0%B8%95")
		if !strings.Contains(body, "Showing 1–5 of 5 clips") {
			t.Errorf("platform filter: want 5 clips")
		}
		if !strings.Contains(body, `<option value="ทวิต" selected>`) {
			t.Errorf("the chosen platform is not selected in the form")
		}
	})
	t.Run("page past the end", func(t *testing.T) {
		res, body := s.get(t, "/?page=9")
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "past the end of 26 clips") {
			t.Errorf("got %d, want 200 with a note about the end", res.StatusCode)
		}
		if got := links(body, "first page"); !equal(got, []string{"/"}) {
			t.Errorf("first page link: got %q", got)
		}
	})
	t.Run("limit above the maximum is clamped and kept", func(t *testing.T) {
		_, body := s.get(t, "/?limit=500")
		if !strings.Contains(body, `<input type="hidden" name="limit" value="100">`) {
			t.Errorf("the clamped limit is not carried by the search form")
		}
	})
	t.Run("no match", func(t *testing.T) {
		_, body := s.get(t, "/?q=zzzz")
		if !strings.Contains(body, "No clips match this search") {
			t.Errorf("no message for an empty result")
		}
	})
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func TestCovers(t *testing.T) {
	s := newSite(t)
	s.addClip(t, catalog.Clip{Title: "Has cover", CoverURL: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"})
	s.addClip(t, catalog.Clip{Title: "No cover", IframeURL: "https://example.org/v/1"})
	_, body := s.get(t, "/")
	placeholder := html.NewAssets().URL("placeholder.svg")
	if !strings.Contains(body, `<img class="cover" src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" alt="Cover of Has cover"`) {
		t.Errorf("the cover image is missing or has no alt text")
	}
	if !strings.Contains(body, `<img class="cover" src="`+placeholder+`" alt="No cover for No cover"`) {
		t.Errorf("a clip without cover does not show the placeholder")
	}
	if n := strings.Count(body, "<img "); n != strings.Count(body, " alt=") {
		t.Errorf("%d images but %d alt attributes", n, strings.Count(body, " alt="))
	}
}

func TestClipPage(t *testing.T) {
	s := newSite(t)
	c := s.addClip(t, catalog.Clip{Title: "Sunset", Actor: "Ann", Studio: "Bay", Platform: "JAV", Notes: "line one\nline two"})
	_, body := s.get(t, fmt.Sprintf("/clips/%d", c.ID))
	for _, want := range []string{
		// The stored URL is framed through its host's embeddable player.
		`<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"`,
		`sandbox="allow-scripts allow-same-origin allow-presentation"`,
		`allow="fullscreen"`,
		`referrerpolicy="strict-origin-when-cross-origin"`,
		`title="Player: Sunset"`,
		`<a class="tag" href="/?platform=JAV">JAV</a>`,
		// Its actor and studio link to their clips (contract 12).
		`<dd><a class="tag" href="/?actor=Ann">Ann</a></dd>`, `<dd><a class="tag" href="/?studio=Bay">Bay</a></dd>`,
		"line one\nline two",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("clip page lacks %q", want)
		}
	}
}

// A watch?v= or youtu.be link refuses to be framed; the page must frame
// the /embed/ form of the same video instead.
func TestClipPageFramesEmbeddablePlayer(t *testing.T) {
	s := newSite(t)
	c := s.addClip(t, catalog.Clip{Title: "Watch link", IframeURL: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"})
	_, body := s.get(t, fmt.Sprintf("/clips/%d", c.ID))
	if want := `<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"`; !strings.Contains(body, want) {
		t.Errorf("clip page lacks %q", want)
	}
}

func TestAccessibleLayout(t *testing.T) {
	s := newSite(t)
	_, body := s.get(t, "/")
	for _, want := range []string{
		`<html lang="en">`,
		`name="viewport"`,
		`<a class="skip-link" href="#main">`,
		`<main id="main"`,
		`<label for="q">`, `id="q"`,
		`<label for="platform">`, `id="platform"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, "style=") || strings.Contains(body, "<script>") || regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(body) {
		t.Errorf("page has inline style or script, or loads something from another site")
	}
}

func TestStaticFiles(t *testing.T) {
	s := newSite(t)
	for name, ct := range map[string]string{
		"site.css":        "text/css; charset=utf-8",
		"site.js":         "text/javascript; charset=utf-8",
		"placeholder.svg": "image/svg+xml",
	} {
		t.Run(name, func(t *testing.T) {
			url := html.NewAssets().URL(name)
			if !regexp.MustCompile(`^/static/[a-z]+\.[0-9a-f]{10}\.[a-z]+$`).MatchString(url) {
				t.Errorf("URL %q does not carry a content hash", url)
			}
			res, body := s.get(t, url)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != ct || body == "" {
				t.Fatalf("got %d %q (%d bytes), want 200 %q", res.StatusCode, res.Header.Get("Content-Type"), len(body), ct)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Errorf("Cache-Control: got %q", cc)
			}
			tag := res.Header.Get("ETag")
			if res, _ := s.get(t, url, "If-None-Match", tag); tag == "" || res.StatusCode != http.StatusNotModified {
				t.Errorf("revalidation with %q: got %d, want 304", tag, res.StatusCode)
			}
		})
	}
}

func TestHead(t *testing.T) {
	s := newSite(t)
	req := httptest.NewRequest(http.MethodHead, "/", nil)
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD /: got %d with %d bytes, want 200, headers, no body", rec.Code, rec.Body.Len())
	}
}
