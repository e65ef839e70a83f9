package movieapi

import (
	"net/http"
	"strconv"
	"strings"

	"catalog/internal/edge"
	"catalog/internal/httpx"
)

const (
	// preflightMaxAge (seconds) lets browsers reuse a preflight answer.
	preflightMaxAge = 86400
	// preflightHeaders are allowed when the browser does not name any.
	preflightHeaders = "Accept, Accept-Encoding, If-None-Match, If-Modified-Since, Range"
)

// headerPolicy is the service's header policy (contract 4.5): any
// origin may read; a successful GET may stay a day in an edge cache;
// errors are never kept.
var headerPolicy = &httpx.Policy{Success: "public, max-age=86400, stale-while-revalidate=600"}

// Headers gives every answer the header policy and the surrogate key
// "movies" (details and the snapshot name their own keys).
func Headers(h http.Handler) http.Handler {
	return headerPolicy.Wrap(edge.WithKeys(h, edge.Movies))
}

// preflight answers a CORS preflight. Reads carry no credentials, so any
// origin and any requested header may be allowed.
func preflight(w http.ResponseWriter, r *http.Request) { preflightFor(w, r, "GET, HEAD, OPTIONS") }

// preflightFor answers a CORS preflight of a route of methods.
func preflightFor(w http.ResponseWriter, r *http.Request, methods string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
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
