package admin

import (
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestDummyHash guards the timing defence: a malformed dummy hash would
// make bcrypt fail instantly for unknown usernames and so reveal which
// usernames exist.
func TestDummyHash(t *testing.T) {
	t.Parallel()
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

func TestTemplatesParse(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	pages := map[string]any{
		"login":  loginPage{},
		"clips":  clipListPage{},
		"edit":   clipFormPage{},
		"delete": deletePage{},
		"movies": movieListPage{},
		"error":  errorPage{},
	}
	for _, lang := range s.views.Catalog().Languages() {
		for name, data := range pages {
			if _, err := s.views.Render(s.views.Catalog().Get(lang.Tag), name, data); err != nil {
				t.Errorf("page %q in %s: %v", name, lang.Tag, err)
			}
		}
	}
}
