package admin

import (
	"net/http/httptest"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestDummyHash guards the timing defence: a malformed dummy hash would
// make bcrypt fail instantly for unknown usernames and so reveal which
// usernames exist.
func TestDummyHash(t *testing.T) {
	cost, err := bcrypt.Cost([]byte(dummyHash))
	if err != nil {
		t.Fatalf("dummy hash is not a bcrypt hash: %v", err)
	}
	if cost != bcrypt.DefaultCost {
		t.Errorf("dummy hash cost: got %d, want %d (the cost of real hashes)", cost, bcrypt.DefaultCost)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(dummyHash), []byte("")); err != bcrypt.ErrMismatchedHashAndPassword {
		t.Errorf("comparing against the dummy hash: got %v, want a plain mismatch", err)
	}
}

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

func TestTemplatesParse(t *testing.T) {
	s := New(Config{})
	pages := map[string]any{
		"login":  loginPage{},
		"clips":  clipListPage{},
		"edit":   clipFormPage{},
		"delete": deletePage{},
		"movies": movieListPage{},
		"error":  errorPage{},
	}
	for name, data := range pages {
		if _, err := s.views.Render(name, data); err != nil {
			t.Errorf("page %q: %v", name, err)
		}
	}
}
