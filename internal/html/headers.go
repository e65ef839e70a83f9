package html

import (
	"net/http"
	"strings"

	"catalog/internal/httpx"
)

// SetPageHeaders sets the headers every HTML page of the clip service
// carries (contract 2): the HTML content type, a strict
// Content-Security-Policy, X-Frame-Options: DENY, a referrer policy, and
// Vary on Accept-Language and Cookie, which pick the page's language.
// frameSrc lists the origins the page may frame; none gives
// frame-src 'none'. Callers set Cache-Control themselves: public pages
// revalidate, admin pages are never stored.
func SetPageHeaders(h http.Header, frameSrc ...string) {
	frames := "'none'"
	if len(frameSrc) > 0 {
		frames = strings.Join(frameSrc, " ")
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "+
		"img-src 'self' https: data:; frame-src "+frames+"; object-src 'none'; "+
		"frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	// The language of a page follows these (locale.Catalog.Pick).
	h.Add("Vary", "Accept-Language, Cookie")
}

// WritePage writes a rendered page through httpx.WritePayload, so pages
// get the same strong ETag, 304 and gzip rules as the JSON payloads. Call
// SetPageHeaders (and set Cache-Control) first: the page goes out as the
// Content-Type it set.
func WritePage(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	httpx.WritePayload(w, r, status, httpx.NewPayloadAs(body, w.Header().Get("Content-Type")))
}
