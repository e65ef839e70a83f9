package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/httpx"
)

// The client is the right-most X-Forwarded-For hop that is not a trusted
// proxy, and only when the peer itself is one; anyone else's header is
// ignored, since a client can write anything in it.
func TestBehindProxies(t *testing.T) {
	t.Parallel()
	trusted, err := httpx.ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		peer, forwardedFor, want string
	}{
		{"127.0.0.1:5000", "198.51.100.9, 203.0.113.1, 10.1.2.3", "203.0.113.1:0"},
		{"10.9.9.9:5000", "203.0.113.7", "203.0.113.7:0"},
		{"127.0.0.1:5000", "", "127.0.0.1:5000"},
		{"127.0.0.1:5000", "garbage, 10.1.2.3", "10.1.2.3:0"},
		{"192.0.2.1:5000", "203.0.113.1", "192.0.2.1:5000"}, // not a trusted peer
	} {
		var got string
		h := httpx.BehindProxies(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.RemoteAddr }), trusted)
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		if tt.forwardedFor != "" {
			r.Header.Set("X-Forwarded-For", tt.forwardedFor)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if got != tt.want {
			t.Errorf("peer %s, X-Forwarded-For %q: client %s, want %s", tt.peer, tt.forwardedFor, got, tt.want)
		}
	}
	if _, err := httpx.ParseTrustedProxies("10.0.0.0/8,lb.internal"); err == nil {
		t.Error("a host name was taken as a trusted proxy")
	}
}
