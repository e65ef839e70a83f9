package httpx_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"catalog/internal/httpx"
)

// FuzzAcceptsGzip: gzip is chosen only when a member of the header names
// it, and never when that member says q=0.
func FuzzAcceptsGzip(f *testing.F) {
	for _, s := range []string{"", "gzip", "GZIP;Q=0", "gzip;q=0.000", "br, gzip;q=0.5", "gzip;q=-0", "gzip;q=NaN",
		"x-gzip", "gzip\x00", "\xffgzip", "gzip;q=1e-400", ";;;,,,", "identity;q=0, *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", header)
		if !httpx.AcceptsGzip(r) {
			return
		}
		named := false
		for part := range strings.SplitSeq(header, ",") {
			name, params, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				named = true
				if q := strings.ReplaceAll(strings.ToLower(params), " ", ""); q == "q=0" || strings.HasPrefix(q, "q=0;") {
					t.Fatalf("%q: gzip chosen despite q=0", header)
				}
				break
			}
		}
		if !named {
			t.Fatalf("%q: gzip chosen but not named", header)
		}
	})
}

// FuzzETagMatches: If-None-Match matches only a listed tag (strong or
// weak) or "*", and always matches a list that holds the tag.
func FuzzETagMatches(f *testing.F) {
	for _, s := range []string{"", "*", `"abc"`, `W/"abc"`, `"x", W/"abc"`, `"abc`, `W/W/"abc"`, "\x00", `"a,b"`} {
		f.Add(s, `"abc"`)
	}
	f.Fuzz(func(t *testing.T, header, tag string) {
		if !httpx.ETagMatches(header, tag) {
			if tag != "" && !strings.Contains(tag, ",") && strings.TrimSpace(tag) == tag && !strings.HasPrefix(tag, "W/") &&
				!httpx.ETagMatches(header+", "+tag, tag) {
				t.Fatalf("%q does not match in a list that holds it", tag)
			}
			return
		}
		listed := false
		for part := range strings.SplitSeq(header, ",") {
			part = strings.TrimSpace(part)
			if part == "*" || part == tag || part == "W/"+tag {
				listed = true
			}
		}
		if !listed {
			t.Fatalf("If-None-Match %q matched %q", header, tag)
		}
	})
}
