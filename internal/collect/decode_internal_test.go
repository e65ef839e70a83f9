package collect

import (
	"encoding/json"
	"testing"
)

// A string member reads as encoding/json reads it, whether it takes the
// path for strings without escapes or not: escapes undone, invalid
// UTF-8 replaced.
func TestTextStrings(t *testing.T) {
	for _, lit := range []string{
		`""`, `"River"`, `"แม่น้ำ 川"`, `"a\"b"`, `"line\nbreak"`, `"\u00e9t\u00e9"`,
		"\"bad \xff byte\"", "\"cut \xe0\xb8 short\"", `"back\\slash"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		var got struct{ V text }
		if err := json.Unmarshal([]byte(`{"V":`+lit+`}`), &got); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		if string(got.V) != want {
			t.Errorf("%q: got %q, want %q", lit, got.V, want)
		}
	}
}
