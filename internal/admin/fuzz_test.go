package admin

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// lowerHex64 is a 256-bit value in hex, the only token form contract 5
// allows and the only form of its hash the database sees.
var lowerHex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// FuzzCookieTokenHash feeds raw Cookie headers to the session cookie
// reader: only a catalog_session value of 64 hex digits may reach the
// database, and then only as its SHA-256 in lower-case hex.
func FuzzCookieTokenHash(f *testing.F) {
	token := strings.Repeat("0123456789abcdef", 4)
	for _, s := range []string{
		"", "catalog_session=" + token, "catalog_session=" + strings.ToUpper(token), "catalog_session=" + token[:63],
		"catalog_session=" + token + "0", `catalog_session="` + token + `"`, "a=b; catalog_session=" + token + "; c=d",
		"catalog_session=" + token + "; catalog_session=x", "catalog_session=x; catalog_session=" + token,
		"catalog_session=" + token[:62] + "\x00\x00", "catalog_session=" + token[:62] + "\xff\xfe", "catalog_session",
		"catalog_session=;", ";;;", "Catalog_Session=" + token, "catalog_session=" + token[:60] + "+-1e",
		"catalog_session=" + token[:62] + "%2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		r := httptest.NewRequest("GET", "/admin", nil)
		r.Header.Set("Cookie", header)
		hash, ok := cookieTokenHash(r)
		if !ok {
			if hash != "" {
				t.Fatalf("%q: refused with hash %q", header, hash)
			}
			return
		}
		if !lowerHex64.MatchString(hash) {
			t.Fatalf("%q: hash %q is not 64 lower-case hex digits", header, hash)
		}
		c, err := r.Cookie("catalog_session")
		if err != nil || len(c.Value) != 64 || strings.Trim(c.Value, "0123456789abcdefABCDEF") != "" {
			t.Fatalf("%q: accepted cookie %v (%v)", header, c, err)
		}
		if hash != hashToken(c.Value) {
			t.Fatalf("%q: hash of another value", header)
		}
	})
}
