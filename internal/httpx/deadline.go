package httpx

import (
	"context"
	"net/http"
	"slices"
	"time"
)

// DefaultReadTimeout is the deadline of a read request when the service
// is given none (contract 1: --read-timeout defaults to 5s).
const DefaultReadTimeout = 5 * time.Second

// ReadDeadline gives every GET and HEAD request that h serves a context
// deadline d after it starts (contract 2; d <= 0: DefaultReadTimeout).
// The database work of a request past it is cancelled, and the engines
// and caches turn that into catalog.ContextError, which the service's
// error writer answers 503 in its own shape. Writes are not bounded
// here: cutting one short would leave the client unsure whether it
// happened. Nor are the paths in except.
func ReadDeadline(h http.Handler, d time.Duration, except ...string) http.Handler {
	if d <= 0 {
		d = DefaultReadTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead || slices.Contains(except, r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}
