package movieapi

import (
	"net/http"
	"strconv"
	"strings"

	"catalog/internal/edge"
)

const (
	// cacheSuccess lets an edge cache keep a successful GET for a day
	// (contract 4.5).
	cacheSuccess = "public, max-age=86400, stale-while-revalidate=600"
	// cacheError keeps errors out of caches: a 404 must not stick for a day.
	cacheError = "no-store"
	// preflightMaxAge (seconds) lets browsers reuse a preflight answer.
	preflightMaxAge = 86400
	// preflightHeaders are allowed when the browser does not name any.
	preflightHeaders = "Accept, Accept-Encoding, If-None-Match, If-Modified-Since, Range"
)

// edgeHeaders gives every response Access-Control-Allow-Origin and the
// Cache-Control of its outcome: errors never cache; successful GETs cache
// for a day unless the handler chose otherwise (the snapshot does).
func edgeHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		edge.SetKeys(w.Header(), edge.Movies) // details and the snapshot name their own keys
		next.ServeHTTP(&cacheControlWriter{ResponseWriter: w, method: r.Method}, r)
	})
}

// cacheControlWriter settles Cache-Control when the status is known.
type cacheControlWriter struct {
	http.ResponseWriter
	method      string
	wroteHeader bool
}

func (c *cacheControlWriter) WriteHeader(code int) {
	if !c.wroteHeader {
		c.wroteHeader = true
		h := c.Header()
		switch {
		case code >= 400:
			h.Set("Cache-Control", cacheError)
		case h.Get("Cache-Control") == "" && (c.method == http.MethodGet || c.method == http.MethodHead):
			h.Set("Cache-Control", cacheSuccess)
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *cacheControlWriter) Write(b []byte) (int, error) {
	if !c.wroteHeader {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (c *cacheControlWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// preflight answers a CORS preflight. Reads carry no credentials, so any
// origin and any requested header may be allowed.
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	allow := strings.TrimSpace(r.Header.Get("Access-Control-Request-Headers"))
	if allow == "" || !isHeaderList(allow) {
		allow = preflightHeaders
	}
	h.Set("Access-Control-Allow-Headers", allow)
	h.Add("Vary", "Access-Control-Request-Headers")
	h.Set("Access-Control-Max-Age", strconv.Itoa(preflightMaxAge))
	w.WriteHeader(http.StatusNoContent)
}

// isHeaderList reports whether s is a comma-separated list of header
// names, so that echoing it back cannot inject anything.
func isHeaderList(s string) bool {
	if len(s) > 1024 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != ',' && c != ' ' && c != '-' && c != '_' && c != '.' &&
			!('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
