package clipapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"catalog/internal/auth"
)

// Only a well-formed API token ("Bearer catalog_" and 64 hex digits),
// without cookies, on the /api/ write routes skips the cross-origin
// check. Browsers attach Basic and Negotiate credentials to cross-site
// form posts by themselves, so any other Authorization header must not
// switch the check off: a cross-site login with one is refused, not
// answered with a session cookie.
func TestCrossOriginExemptionOnlyForTokens(t *testing.T) {
	e := newEnv(t)
	crossSite := func(authz, contentType string) map[string]string {
		return map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example",
			"Authorization": authz, "Content-Type": contentType}
	}
	login := url.Values{"username": {testUser}, "password": {testPassword}}.Encode()
	wellFormed := "Bearer " + auth.Prefix + strings.Repeat("ab", 32)
	for _, authz := range []string{
		"Basic YWRtaW46Y29ycmVjdCBob3JzZQ==",
		"Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1MIIGcaADAgEF",
		"Bearer " + auth.Prefix + strings.Repeat("zz", 32), // right length, not hex
		"Bearer notatoken",
		wellFormed, // a token, but the console's login form is not an API route
	} {
		w := e.do(request{method: "POST", target: "/admin/login", body: login,
			headers: crossSite(authz, "application/x-www-form-urlencoded")})
		if w.Code != http.StatusForbidden || w.Header().Get("Set-Cookie") != "" {
			t.Errorf("cross-site login with Authorization %q: got %d, Set-Cookie %q; want 403 and no cookie",
				authz, w.Code, w.Header().Get("Set-Cookie"))
		}
	}
	for _, authz := range []string{"Basic YWRtaW46Y29ycmVjdCBob3JzZQ==", "Bearer notatoken"} {
		w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: crossSite(authz, "application/json")})
		wantError(t, w, http.StatusForbidden)
	}
	// A well-formed token on an API write route is judged by the token.
	w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: crossSite(wellFormed, "application/json")})
	wantError(t, w, http.StatusUnauthorized)
}
