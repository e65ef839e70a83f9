package apitest

import (
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

var (
	assetTag  = regexp.MustCompile(`<(script|link)\b[^>]*>`)
	attribute = regexp.MustCompile(`\b(src|href|integrity|rel)="([^"]*)"`)
	// inline is script or style written in the page itself.
	inline = regexp.MustCompile(`<style|<script(\s[^>]*)?>\s*[^<\s]|\sstyle=|\son[a-z]+=`)
)

// CheckDocsPage fails t unless h serves the API reference page at
// /api/docs with a Content-Security-Policy that allows only same-origin
// scripts and styles, no inline script or style, and every script and
// style sheet the page names is served with the integrity the page
// pins.
func CheckDocsPage(t testing.TB, h http.Handler) {
	t.Helper()
	page := get(t, h, "/api/docs")
	if ct := page.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("/api/docs Content-Type: got %q, want text/html; charset=utf-8", ct)
	}
	csp := page.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("/api/docs CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
		t.Errorf("/api/docs CSP %q allows more than its own files", csp)
	}
	if got := page.Header().Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("/api/docs X-Frame-Options: got %q, want DENY", got)
	}
	body := page.Body.String()
	if inline.MatchString(body) {
		t.Errorf("/api/docs has inline script or style, which its CSP forbids:\n%s", body)
	}
	assets := 0
	for _, tag := range assetTag.FindAllString(body, -1) {
		attrs := map[string]string{}
		for _, m := range attribute.FindAllStringSubmatch(tag, -1) {
			attrs[m[1]] = m[2]
		}
		url := attrs["src"]
		if url == "" {
			if attrs["rel"] != "stylesheet" {
				continue
			}
			url = attrs["href"]
		}
		assets++
		if !strings.HasPrefix(url, "/") || strings.HasPrefix(url, "//") {
			t.Errorf("/api/docs loads %s from another origin", url)
			continue
		}
		res := get(t, h, url)
		sum := sha512.Sum384(res.Body.Bytes())
		if want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:]); attrs["integrity"] != want {
			t.Errorf("%s: integrity %q, want %q", url, attrs["integrity"], want)
		}
		if res.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s is served without X-Content-Type-Options: nosniff", url)
		}
	}
	if assets != 2 {
		t.Errorf("/api/docs names %d scripts and style sheets, want 2 (docs.js, docs.css)", assets)
	}
}

func get(t testing.TB, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: got status %d, want 200; body %s", target, rec.Code, rec.Body)
	}
	return rec
}
