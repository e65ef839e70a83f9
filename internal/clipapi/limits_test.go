package clipapi_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
)

// searchCase is one search text sent to every search box of a service.
type searchCase struct {
	name    string
	q       string
	wantMsg string // "" = accepted (200)
}

// distinctWords returns n distinct words "w1 ... wn".
func distinctWords(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", i+1)
	}
	return strings.Join(w, " ")
}

// searchCases pins contract 2's limits as literals: 256 characters after
// trimming, 16 distinct words, no control characters, valid UTF-8.
func searchCases(param string) []searchCase {
	return []searchCase{
		{"256 characters", strings.Repeat("a", 256), ""},
		{"256 characters inside spaces", "  " + strings.Repeat("a", 256) + "  ", ""},
		{"256 Thai characters", strings.Repeat("ก", 256), ""},
		{"257 characters", strings.Repeat("a", 257), param + " must be at most 256 characters"},
		{"16 distinct words", distinctWords(16), ""},
		{"16 distinct words, each twice", distinctWords(16) + " " + strings.ToUpper(distinctWords(16)), ""},
		{"17 distinct words", distinctWords(17), param + " must have at most 16 distinct words"},
		{"100 KB of words", strings.Repeat("abcd ", 20000), param + " must be at most 256 characters"},
		{"NUL", "abc\x00def", param + " must not contain control characters"},
		{"tab", "abc\tdef", param + " must not contain control characters"},
		{"DEL", "abc\x7f", param + " must not contain control characters"},
		{"invalid UTF-8", "abc\xff", param + " must be valid UTF-8"},
	}
}

func TestSearchTextLimitsAPI(t *testing.T) {
	e := newEnv(t)
	e.addClip(catalog.Clip{Title: "Sunset"})
	for _, tc := range searchCases("q") {
		t.Run(tc.name, func(t *testing.T) {
			w := e.get("/api/clips?q=" + url.QueryEscape(tc.q))
			if tc.wantMsg == "" {
				decodeList(t, w)
				return
			}
			got := wantError(t, w, http.StatusBadRequest)
			if got.Error.Message != tc.wantMsg {
				t.Errorf("message %q, want %q", got.Error.Message, tc.wantMsg)
			}
		})
	}
}

// The HTML search boxes (public index, admin clips, admin movies) show
// the message on a page with status 400.
func TestSearchTextLimitsPages(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	for _, page := range []string{"/", "/admin", "/admin/movies"} {
		for _, tc := range searchCases("q") {
			t.Run(page+" "+tc.name, func(t *testing.T) {
				w := e.do(request{target: page + "?q=" + url.QueryEscape(tc.q), cookie: cookie})
				if tc.wantMsg == "" {
					if w.Code != http.StatusOK {
						t.Fatalf("got status %d, want 200", w.Code)
					}
					return
				}
				if w.Code != http.StatusBadRequest {
					t.Fatalf("got status %d, want 400", w.Code)
				}
				if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
					t.Errorf("Content-Type %q, want an HTML page", ct)
				}
				if !strings.Contains(w.Body.String(), html.EscapeString(tc.wantMsg)) {
					t.Errorf("page does not show %q", tc.wantMsg)
				}
			})
		}
	}
}

// Contract 2: a read request past --read-timeout is a 503 in the clip
// error shape (the database work is refused or cancelled by the engine),
// on the JSON API and the HTML pages; writes are not bounded by it.
func TestReadTimeout503(t *testing.T) {
	e := newEnv(t, func(c *cli.ServiceDeps) { c.ReadTimeout = time.Nanosecond })
	c := e.addClip(catalog.Clip{Title: "Slow"})
	for _, path := range []string{"/api/clips", "/api/clips?q=s", fmt.Sprintf("/api/clips/%d", c.ID)} {
		t.Run(path, func(t *testing.T) {
			got := wantError(t, e.get(path), http.StatusServiceUnavailable)
			if got.Error.Message != "request timed out" {
				t.Errorf("message %q, want %q", got.Error.Message, "request timed out")
			}
		})
	}
	t.Run("public page", func(t *testing.T) {
		if w := e.get("/?q=s"); w.Code != http.StatusServiceUnavailable {
			t.Errorf("got status %d, want 503", w.Code)
		}
	})
	t.Run("writes are not bound", func(t *testing.T) {
		w := e.postJSON(http.MethodPost, "/api/clips", `{"title":"Written","iframe_url":"https://dai.ly/x9"}`, e.login())
		if w.Code != http.StatusCreated {
			t.Errorf("POST /api/clips: got %d %s, want 201", w.Code, w.Body)
		}
	})
}

// Contract 3.5's body limit as literals: a 65,536-byte body is read and
// created, 65,537 bytes is a 413. The padding is JSON white space, so
// both bodies are the same valid clip. Also for PATCH, which reads its
// body the same way.
func TestClipBodyLimit(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	body := func(size int) string {
		const obj = `{"title":"Padded","iframe_url":"https://dai.ly/x7abc"}`
		return strings.Repeat(" ", size-len(obj)) + obj
	}
	if b := body(65536); len(b) != 65536 {
		t.Fatalf("built %d bytes", len(b))
	}
	w := e.postJSON(http.MethodPost, "/api/clips", body(65536), cookie)
	if w.Code != http.StatusCreated {
		t.Fatalf("65,536 bytes: got %d %s, want 201", w.Code, w.Body)
	}
	id := decodeClip(t, w).ID
	got := wantError(t, e.postJSON(http.MethodPost, "/api/clips", body(65537), cookie), http.StatusRequestEntityTooLarge)
	if got.Error.Message != "body must be at most 65536 bytes" {
		t.Errorf("message %q, want %q", got.Error.Message, "body must be at most 65536 bytes")
	}
	target := fmt.Sprintf("/api/clips/%d", id)
	if w := e.postJSON(http.MethodPatch, target, body(65536), cookie); w.Code != http.StatusOK {
		t.Errorf("PATCH 65,536 bytes: got %d %s, want 200", w.Code, w.Body)
	}
	wantError(t, e.postJSON(http.MethodPatch, target, body(65537), cookie), http.StatusRequestEntityTooLarge)
	if n := e.clipCount(); n != 1 {
		t.Errorf("clips stored: got %d, want 1", n)
	}
}

// Contract 2: a 304 only where the answer would be 200. An error keeps
// its status when If-None-Match names its own tag or "*" (RFC 9110
// 13.2.1), on the JSON API and on the HTML pages.
func TestNoNotModifiedForErrors(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/api/clips/999999", "/api/clips?page=0", "/api/clips?q=%00", "/clips/999999", "/?q=%00"} {
		t.Run(path, func(t *testing.T) {
			first := e.get(path)
			if first.Code < 400 {
				t.Fatalf("got %d, want an error", first.Code)
			}
			tag := first.Header().Get("ETag")
			for _, inm := range []string{tag, "*"} {
				w := e.do(request{target: path, headers: map[string]string{"If-None-Match": inm}})
				if w.Code != first.Code || w.Body.Len() == 0 {
					t.Errorf("If-None-Match %s: got %d with %d bytes, want %d again with its body", inm, w.Code, w.Body.Len(), first.Code)
				}
			}
		})
	}
}
