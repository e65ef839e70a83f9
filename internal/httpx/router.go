package httpx

import (
	"net/http"
	"slices"
	"strings"

	"catalog/internal/catalog"
)

// Router is a ServeMux that answers unknown paths with 404 and known
// paths with another method with 405 + Allow, both in the service's
// error shape.
type Router struct {
	mux *http.ServeMux // method patterns, plus "/" for everything else
	// paths holds the same paths without methods and is only asked which
	// path matched. Kept apart from mux because ServeMux rejects a
	// method-less literal path beside a method pattern with a wildcard
	// ("/api/movies/snapshot" vs "GET /api/movies/{id}") as a conflict.
	paths    *http.ServeMux
	writeErr ErrorWriter
	allowed  map[string][]string // path -> methods
}

// NewRouter returns a router writing errors with writeErr.
func NewRouter(writeErr ErrorWriter) *Router {
	rt := &Router{mux: http.NewServeMux(), paths: http.NewServeMux(), writeErr: writeErr, allowed: map[string][]string{}}
	rt.mux.HandleFunc("/", rt.unmatched)
	return rt
}

// unmatched answers requests no method pattern took: 405 + Allow when
// the path is known, else 404.
func (rt *Router) unmatched(w http.ResponseWriter, r *http.Request) {
	if _, path := rt.paths.Handler(r); path != "" {
		if methods, ok := rt.allowed[path]; ok {
			w.Header().Set("Allow", strings.Join(methods, ", "))
			rt.writeErr(w, r, catalog.Errorf(EMETHOD, "method %s not allowed on %s", r.Method, r.URL.Path))
			return
		}
	}
	rt.writeErr(w, r, catalog.Errorf(catalog.ENOTFOUND, "no such path: %s", r.URL.Path))
}

// Handle registers h for method and path (a ServeMux path pattern).
// GET also answers HEAD.
func (rt *Router) Handle(method, path string, h http.Handler) {
	rt.mux.Handle(method+" "+path, h)
	methods, seen := rt.allowed[path]
	methods = append(methods, method)
	if method == http.MethodGet {
		methods = append(methods, http.MethodHead)
	}
	slices.Sort(methods)
	rt.allowed[path] = methods
	if !seen {
		rt.paths.Handle(path, http.NotFoundHandler())
	}
}

// HandleFunc is Handle for a function.
func (rt *Router) HandleFunc(method, path string, h http.HandlerFunc) { rt.Handle(method, path, h) }

// ServeHTTP dispatches to the registered handlers.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }

// EMETHOD is the code of a 405; only routing produces it, so it lives
// here rather than in the domain.
const EMETHOD = "method_not_allowed"

func init() { codeStatus[EMETHOD] = http.StatusMethodNotAllowed }
