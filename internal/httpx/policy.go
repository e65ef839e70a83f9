package httpx

import (
	"log/slog"
	"net/http"
	"time"
)

// NoStore is the Cache-Control of every error answer and of answers no
// cache may keep (health, writes).
const NoStore = "no-store"

// Policy is a service's one header policy for its public reads, decided
// when the status is known: every answer carries
// Access-Control-Allow-Origin: * (reads carry no credentials); an error
// (4xx, 5xx) is NoStore; a successful GET or HEAD gets Success unless
// the handler chose its own Cache-Control (health, the snapshot).
type Policy struct {
	Success string // Cache-Control of a successful read
}

// Wrap applies the policy to every answer of h.
func (p *Policy) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := Record(w, r)
		rec.Header().Set("Access-Control-Allow-Origin", "*")
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		rec.OnHeader(func(status int, h http.Header) {
			switch {
			case status >= 400:
				h.Set("Cache-Control", NoStore)
			case read && h.Get("Cache-Control") == "":
				h.Set("Cache-Control", p.Success)
			}
		})
		h.ServeHTTP(rec, r)
	})
}

// Stack is how both services assemble their middleware, in one order,
// outermost first: Common (nosniff, panic recovery, request log), Guard,
// ReadDeadline, Headers, then the routes.
type Stack struct {
	Log    *slog.Logger
	Errors ErrorWriter
	// Guard refuses requests before any route runs (the clip service's
	// cross-origin check); nil: none.
	Guard func(http.Handler) http.Handler
	// ReadTimeout is the deadline of every GET and HEAD (ReadDeadline)
	// but those to the paths in NoDeadline, which stream files rather
	// than do database work.
	ReadTimeout time.Duration
	NoDeadline  []string
	// Headers is the header policy of every answer (CORS, caching,
	// surrogate keys); nil: the routes set their own.
	Headers func(http.Handler) http.Handler
}

// Handler wraps routes in the stack.
func (s Stack) Handler(routes http.Handler) http.Handler {
	h := routes
	if s.Headers != nil {
		h = s.Headers(h)
	}
	h = ReadDeadline(h, s.ReadTimeout, s.NoDeadline...)
	if s.Guard != nil {
		h = s.Guard(h)
	}
	return Common(h, s.Log, s.Errors)
}
