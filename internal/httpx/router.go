package httpx

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"catalog/internal/catalog"
)

// Router is a ServeMux that answers unknown paths with 404 and known
// paths with another method with 405 + Allow, both in the service's
// error shape.
type Router struct {
	mux      *http.ServeMux
	writeErr ErrorWriter
	patterns []string // as registered, for Patterns
}

// probeMethods are the methods tried when a path matched no route, to
// tell a 405 (the path exists with another method) from a 404.
var probeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions}

// NewRouter returns a router writing errors with writeErr.
func NewRouter(writeErr ErrorWriter) *Router {
	rt := &Router{mux: http.NewServeMux(), writeErr: writeErr}
	// Only requests that match no method-specific pattern land here, so
	// the extra mux lookups cost nothing on the hot path.
	rt.mux.HandleFunc("/", rt.unmatched)
	return rt
}

func (rt *Router) unmatched(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range probeMethods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := rt.mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		rt.writeErr(w, r, catalog.Errorf(catalog.ENOTFOUND, "no such path: %s", r.URL.Path))
		return
	}
	slices.Sort(allow)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	rt.writeErr(w, r, catalog.Errorf(EMETHOD, "method %s not allowed on %s", r.Method, r.URL.Path))
}

// Handle registers h for method and path (a ServeMux path pattern).
// GET also answers HEAD.
func (rt *Router) Handle(method, path string, h http.Handler) {
	rt.mux.Handle(method+" "+path, h)
	rt.patterns = append(rt.patterns, method+" "+path)
}

// Patterns lists every registered "METHOD /path" pattern, so that tests
// can hold the route table to the service's OpenAPI document.
func (rt *Router) Patterns() []string { return slices.Clone(rt.patterns) }

// HandleFunc is Handle for a function.
func (rt *Router) HandleFunc(method, path string, h http.HandlerFunc) { rt.Handle(method, path, h) }

// ServeHTTP dispatches to the registered handlers, after refusing a
// malformed query string. (Inside each service's header middleware, so
// the 400 carries the service's CORS and cache headers.)
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := checkQuery(r.URL.RawQuery); err != nil {
		rt.writeErr(w, r, err)
		return
	}
	defer recordRoute(r) // the mux sets r.Pattern in place; a panic still records it
	rt.mux.ServeHTTP(w, r)
}

// checkQuery refuses a query string that url.Values cannot hold whole: a
// raw ";" or a broken %-escape would otherwise drop its parameter
// silently (ids=1;2 would list everything). Only queries with such a
// character are parsed twice.
func checkQuery(raw string) error {
	if !strings.ContainsAny(raw, ";%") {
		return nil
	}
	if _, err := url.ParseQuery(raw); err != nil {
		return catalog.WithCause(catalog.Errorf(catalog.EINVALID, "malformed query string: %v", err), err)
	}
	return nil
}

// EMETHOD is the code of a 405; only routing produces it, so it lives
// here rather than in the domain.
const EMETHOD = "method_not_allowed"

// ERANGE is the code of a 416 (a Range outside the content); only
// file serving produces it.
const ERANGE = "range_not_satisfiable"
