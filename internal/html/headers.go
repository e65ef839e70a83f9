package html

import (
	"net/http"
	"strings"

	"catalog/internal/httpx"
)

// SetPageHeaders sets the headers every HTML page of the clip service
// carries (contract 2): the HTML content type, a strict
// Content-Security-Policy, X-Frame-Options: DENY and a referrer policy.
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
}

// WritePage writes a rendered page through httpx.WritePayload, so pages
// get the same strong ETag, 304 and gzip rules as the JSON payloads. Call
// SetPageHeaders (and set Cache-Control) first.
func WritePage(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	writeAs(w, r, status, w.Header().Get("Content-Type"), httpx.NewPayload(body))
}

// writeAs writes p with contentType instead of the JSON type that
// httpx.WritePayload sets, keeping that function the one copy of the
// conditional-request and compression rules.
// WriteAs writes p as contentType with the same ETag, 304 and gzip rules
// as pages, for the files other packages serve (the API reference).
func WriteAs(w http.ResponseWriter, r *http.Request, status int, contentType string, p *httpx.Payload) {
	writeAs(w, r, status, contentType, p)
}

func writeAs(w http.ResponseWriter, r *http.Request, status int, contentType string, p *httpx.Payload) {
	httpx.WritePayload(contentTypeWriter{ResponseWriter: w, contentType: contentType}, r, status, p)
}

// contentTypeWriter replaces the Content-Type just before the header is
// sent.
type contentTypeWriter struct {
	http.ResponseWriter
	contentType string
}

func (c contentTypeWriter) WriteHeader(code int) {
	if code != http.StatusNotModified {
		c.Header().Set("Content-Type", c.contentType)
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c contentTypeWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
