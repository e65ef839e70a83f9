package html

import (
	"net/http"
	"strings"

	"catalog/internal/httpx"
	"catalog/internal/locale"
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

// Write renders page name in l's language and writes it with status,
// the headers every HTML page carries (SetPageHeaders, with frameSrc)
// and cacheControl, through httpx.WritePayload, so pages get the same
// strong ETag, 304 and gzip rules as the JSON payloads. A template
// error is a bug (the templates are parsed at start): it is logged and
// answered 500 in plain text, never as half a page.
func (v *Views) Write(w http.ResponseWriter, r *http.Request, status int, cacheControl string, l *locale.Localizer, name string, data any, frameSrc ...string) {
	body, err := v.Render(l, name, data)
	if err != nil {
		v.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	SetPageHeaders(w.Header(), frameSrc...)
	w.Header().Set("Cache-Control", cacheControl)
	httpx.WritePayload(w, r, status, httpx.NewPayloadAs(body, w.Header().Get("Content-Type")))
}
