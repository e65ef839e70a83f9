package movieapi_test

import (
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func distinctWords(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", i+1)
	}
	return strings.Join(w, " ")
}

// Contract 2's search text limits on every movie search parameter, as
// literals: 256 characters after trimming, 16 distinct words, no control
// characters, valid UTF-8; the 400 names the parameter and the limit.
func TestSearchTextLimits(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	cases := []struct {
		name    string
		q       string
		wantMsg string // "" = accepted
	}{
		{"256 characters", strings.Repeat("a", 256), ""},
		{"256 characters inside spaces", "  " + strings.Repeat("a", 256) + "  ", ""},
		{"256 Thai characters", strings.Repeat("ก", 256), ""},
		{"257 characters", strings.Repeat("a", 257), " must be at most 256 characters"},
		{"16 distinct words", distinctWords(16), ""},
		{"16 distinct words, each twice", distinctWords(16) + " " + strings.ToUpper(distinctWords(16)), ""},
		{"17 distinct words", distinctWords(17), " must have at most 16 distinct words"},
		{"100 KB of words", strings.Repeat("abcd ", 20000), " must be at most 256 characters"},
		{"NUL", "abc\x00def", " must not contain control characters"},
		{"newline", "abc\ndef", " must not contain control characters"},
		{"DEL", "abc\x7f", " must not contain control characters"},
		{"invalid UTF-8", "abc\xff", " must be valid UTF-8"},
	}
	for _, target := range []struct{ path, param string }{
		{"/api/movies", "q"}, {"/api/jav", "q"}, {"/api/jav", "wd"},
	} {
		for _, tc := range cases {
			t.Run(target.path+" "+target.param+" "+tc.name, func(t *testing.T) {
				r := do(t, h, http.MethodGet, target.path+"?"+target.param+"="+url.QueryEscape(tc.q))
				if tc.wantMsg == "" {
					if r.status != http.StatusOK {
						t.Fatalf("got status %d, want 200; body %s", r.status, r.body)
					}
					return
				}
				checkError(t, r, http.StatusBadRequest, target.param+tc.wantMsg)
			})
		}
	}
}

// Contract 2: a read request past --read-timeout is a 503 in the movie
// error shape; the snapshot (a file, not database work) is not bound.
func TestReadTimeout503(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	h := cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Version: "test", Logger: testLogger(t), ReadTimeout: time.Nanosecond})
	for _, target := range []string{"/api/movies", "/api/movies?q=movie", "/api/movies/2", "/api/jav?wd=movie", "/api/jav/2"} {
		t.Run(target, func(t *testing.T) {
			checkError(t, do(t, h, http.MethodGet, target), http.StatusServiceUnavailable, "request timed out")
		})
	}
}

// Contract 2: a 304 only where the answer would be 200; errors (404,
// 400, the snapshot's 503) are repeated whatever If-None-Match says.
func TestNoNotModifiedForErrors(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	for _, target := range []string{"/api/movies/999", "/api/jav/999", "/api/movies?fields=nope", "/api/jav?wd=%00", "/api/movies/snapshot", "/nowhere"} {
		t.Run(target, func(t *testing.T) {
			first := do(t, h, http.MethodGet, target)
			if first.status < 400 {
				t.Fatalf("got %d, want an error", first.status)
			}
			for _, inm := range []string{first.header.Get("ETag"), "*"} {
				if inm == "" {
					continue
				}
				r := do(t, h, http.MethodGet, target, "If-None-Match", inm)
				if r.status != first.status || len(r.body) == 0 {
					t.Errorf("If-None-Match %s: got %d with %d bytes, want %d again with its body", inm, r.status, len(r.body), first.status)
				}
			}
		})
	}
}
