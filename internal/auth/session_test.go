package auth

import (
	"net/http/httptest"
	"testing"
)

func TestCookieTokenHash(t *testing.T) {
	valid := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name, cookie string
		ok           bool
	}{
		{"valid", valid, true},
		{"short", valid[:63], false},
		{"long", valid + "0", false},
		{"not hex", "zz" + valid[2:], false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tt.cookie != "" {
				r.Header.Set("Cookie", CookieName+"="+tt.cookie)
			}
			hash, ok := cookieTokenHash(r)
			if ok != tt.ok {
				t.Fatalf("got ok=%v, want %v", ok, tt.ok)
			}
			if ok && (hash == tt.cookie || len(hash) != 64) {
				t.Errorf("got hash %q, want the hex SHA-256 of the token", hash)
			}
		})
	}
}
