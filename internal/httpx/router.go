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
	mux      *http.ServeMux
	writeErr ErrorWriter
	allowed  map[string][]string // path -> methods
}

// NewRouter returns a router writing errors with writeErr.
func NewRouter(writeErr ErrorWriter) *Router {
	rt := &Router{mux: http.NewServeMux(), writeErr: writeErr, allowed: map[string][]string{}}
	rt.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeErr(w, r, catalog.Errorf(catalog.ENOTFOUND, "no such path: %s", r.URL.Path))
	})
	return rt
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
	if seen {
		return
	}
	// A pattern without a method is less specific than any with one, so
	// this only sees the methods nobody registered.
	rt.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", strings.Join(rt.allowed[path], ", "))
		rt.writeErr(w, r, catalog.Errorf(EMETHOD, "method %s not allowed on %s", r.Method, r.URL.Path))
	})
}

// HandleFunc is Handle for a function.
func (rt *Router) HandleFunc(method, path string, h http.HandlerFunc) { rt.Handle(method, path, h) }

// ServeHTTP dispatches to the registered handlers.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }

// EMETHOD is the code of a 405; only routing produces it, so it lives
// here rather than in the domain.
const EMETHOD = "method_not_allowed"

func init() { codeStatus[EMETHOD] = http.StatusMethodNotAllowed }
