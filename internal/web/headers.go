package web

import (
	"net/http"
	"net/url"
	"strings"

	"catalog/internal/httpx"
)

// PlayerHosts are the player origins every clip page may frame. They are
// listed even when a clip's own URL names a sibling host, because the
// players redirect between them (youtube.com -> www.youtube.com) and a
// redirect target must pass frame-src too.
var PlayerHosts = []string{
	"https://www.youtube.com",
	"https://www.youtube-nocookie.com",
	"https://www.dailymotion.com",
	"https://geo.dailymotion.com",
}

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

// WriteHTML writes a rendered page through httpx.WritePayload, so pages
// get the same strong ETag, 304 and gzip rules as the JSON payloads. Call
// SetPageHeaders (and set Cache-Control) first.
func WriteHTML(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	writeAs(w, r, status, w.Header().Get("Content-Type"), httpx.NewPayload(body))
}

// WriteAs is writeAs for pages and files served by other packages (the
// API reference), so that they share the one copy of these rules.
func WriteAs(w http.ResponseWriter, r *http.Request, status int, contentType string, p *httpx.Payload) {
	writeAs(w, r, status, contentType, p)
}

// writeAs writes p with contentType instead of the JSON type that
// httpx.WritePayload sets, keeping that function the one copy of the
// conditional-request and compression rules.
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

// frameOrigin returns the origin of a player URL for frame-src, or ""
// when the URL cannot be framed safely. Only characters that can appear
// in a host are let through, so that a stored URL can never add a
// directive to the policy header.
func frameOrigin(player string) string {
	u, err := url.Parse(player)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Host)
	for _, c := range host {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-', c == ':', c == '[', c == ']':
		default:
			return ""
		}
	}
	return u.Scheme + "://" + host
}

// playerFrameSrc is the frame-src of a clip page: the known player hosts
// plus the clip's own origin when it is another host.
func playerFrameSrc(origin string) []string {
	src := PlayerHosts
	for _, h := range PlayerHosts {
		if h == origin {
			return src
		}
	}
	return append(append([]string(nil), src...), origin)
}
