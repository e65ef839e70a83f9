package httpx

import (
	"context"
	"net/http"
	"time"

	"catalog/internal/catalog"
)

// HealthTimeout is how long the database has to answer a health check.
const HealthTimeout = time.Second

// Health answers GET /api/health on both services (contract 3.4): 200
// {"status":"ok",...} or 503 {"status":"unavailable",...,"database":"error"}
// when ping does not succeed within HealthTimeout. "search" is "ready"
// when searchReady reports the service's index ready, else "building";
// with the query parameter ready the answer is also 503 while it is
// building, so a load balancer holds traffic from an instance whose
// lists would wait. The caller's middleware adds the service's CORS
// headers. The answer is always Cache-Control: no-store, replacing the
// service's own: an edge must not keep a stale "ok" (contract 3.4).
func Health(ping func(context.Context) error, searchReady func() bool, version string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), HealthTimeout)
		defer cancel()
		w.Header().Set("Cache-Control", NoStore)
		status, state, db, index := http.StatusOK, "ok", "ok", "ready"
		if err := pingWithin(ctx, ping); err != nil {
			status, state, db = http.StatusServiceUnavailable, "unavailable", "error"
		}
		if !searchReady() {
			index = "building"
			if r.URL.Query().Has("ready") {
				status, state = http.StatusServiceUnavailable, "unavailable"
			}
		}
		if status != http.StatusOK {
			w.Header().Set("Retry-After", "5")
		}
		b := []byte(`{"status":"` + state + `","version":`)
		b = catalog.AppendJSONString(b, version)
		b = append(b, `,"database":"`+db+`","search":"`+index+`"}`...)
		WriteJSON(w, r, status, b)
	}
}

// pingWithin returns ping's result, or ctx's error once ctx is done,
// whichever comes first: a driver that ignores its context must not
// hold the health check (and the caller) past the deadline.
func pingWithin(ctx context.Context, ping func(context.Context) error) error {
	done := make(chan error, 1) // buffered: a late ping must not block forever
	go func() { done <- ping(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
