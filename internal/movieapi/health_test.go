package movieapi_test

import (
	"net/http"
	"testing"
)

// TestHealthIsNeverCached: contract 3.4, on both services; the movie
// service's day-long Cache-Control for successful GETs must not reach
// the health check.
func TestHealthIsNeverCached(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	r := get(t, h, "/api/health", http.StatusOK)
	checkHeader(t, r, "Cache-Control", "no-store")
}
