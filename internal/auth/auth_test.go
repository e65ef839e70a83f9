package auth

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSecretAndHash(t *testing.T) {
	secret, hash := NewSecret()
	if !strings.HasPrefix(secret, "catalog_") || len(secret) != 8+64 {
		t.Errorf("secret %q: want catalog_ and 64 hex digits", secret)
	}
	if hash != Hash(secret) || len(hash) != 64 || strings.Contains(hash, secret[8:]) {
		t.Errorf("hash %q of %q", hash, secret)
	}
	if other, _ := NewSecret(); other == secret {
		t.Error("two secrets are equal")
	}
}

func TestBearer(t *testing.T) {
	good := "catalog_" + strings.Repeat("0a", 32)
	tests := []struct {
		header string
		want   string
		ok     bool
	}{
		{"Bearer " + good, good, true},
		{"bearer " + good, good, true},
		{"BEARER  " + good + " ", good, true},
		{"Basic " + good, "", false},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{good, "", false},
		{"Bearer " + good[:len(good)-1], "", false},
		{"Bearer " + good + "0", "", false},
		{"Bearer " + strings.Repeat("0a", 36), "", false},
	}
	for _, tt := range tests {
		got, ok := bearer(tt.header)
		if got != tt.want || ok != tt.ok {
			t.Errorf("bearer(%q) = %q, %v; want %q, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

// Only a well-formed token without cookies counts: Basic, Negotiate or
// a malformed Bearer header is what a browser may send on its own.
func TestTokenOnly(t *testing.T) {
	token := "Bearer catalog_" + strings.Repeat("0f", 32)
	tests := []struct {
		auth, cookie string
		want         bool
	}{
		{token, "", true},
		{"bearer catalog_" + strings.Repeat("AB", 32), "", true},
		{token, "catalog_session=abc", false},
		{token, "other=1", false},
		{"Bearer x", "", false},
		{"Bearer catalog_" + strings.Repeat("zz", 32), "", false},
		{"Basic YWRtaW46cGFzc3dvcmQ=", "", false},
		{"Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1", "", false},
		{"", "", false},
		{"", "catalog_session=abc", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/api/clips", nil)
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		if tt.cookie != "" {
			r.Header.Set("Cookie", tt.cookie)
		}
		if got := TokenOnly(r); got != tt.want {
			t.Errorf("TokenOnly(Authorization %q, Cookie %q) = %v, want %v", tt.auth, tt.cookie, got, tt.want)
		}
	}
}
