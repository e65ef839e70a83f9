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

func TestTokenOnly(t *testing.T) {
	tests := []struct {
		auth, cookie string
		want         bool
	}{
		{"Bearer x", "", true},
		{"Bearer x", "catalog_session=abc", false},
		{"Bearer x", "other=1", false},
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
