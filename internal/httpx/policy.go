package httpx

import (
	"log/slog"
	"net/http"
	"time"
)

// NoStore is the Cache-Control of every error answer and of answers no
// cache may keep (health, writes).
const NoStore = "no-store"

// ClearForError readies h for an error answer: the headers a handler
// set for the success it did not send (validators, encoding, location)
// go, and no cache may keep the error (a 404 must not stick for a day).
// Each service's ErrorWriter calls it.
func ClearForError(h http.Header) {
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Del("Content-Encoding")
	h.Del("Location")
	h.Set("Cache-Control", NoStore)
}

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
		w.Header().Set("Access-Control-Allow-Origin", "*")
		h.ServeHTTP(&policyWriter{ResponseWriter: w, policy: p, read: r.Method == http.MethodGet || r.Method == http.MethodHead}, r)
	})
}

// policyWriter settles Cache-Control when the status is known.
type policyWriter struct {
	http.ResponseWriter
	policy      *Policy
	read        bool // GET or HEAD
	wroteHeader bool
}

func (c *policyWriter) WriteHeader(code int) {
	if !c.wroteHeader {
		c.wroteHeader = true
		h := c.Header()
		switch {
		case code >= 400:
			h.Set("Cache-Control", NoStore)
		case c.read && h.Get("Cache-Control") == "":
			h.Set("Cache-Control", c.policy.Success)
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *policyWriter) Write(b []byte) (int, error) {
	if !c.wroteHeader {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (c *policyWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

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
