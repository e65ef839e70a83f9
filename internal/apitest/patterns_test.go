package apitest

import (
	"slices"
	"strings"
	"testing"
)

func TestCheckPatterns(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // parts of the failures, in order
	}{
		{"RE2 escapes", `{"a": {"schema": {"pattern": "^[^\\x00-\\x1F\\x7F]*$"}}, "b": [{"pattern": "^[0-9]+$"}]}`, nil},
		{"an ECMA-262 \\u escape", `{"a": {"pattern": "^[^\\u0000-\\u001F]*$"}}`, []string{`pattern "^[^\\u0000-\\u001F]*$" does not compile as RE2`}},
		{"no pattern at all", `{"properties": {"pattern": {"type": "string"}}}`, []string{"has no \"pattern\""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckPatterns(r, []byte(tt.doc))
			if len(r.errs) != len(tt.want) {
				t.Fatalf("got failures %q, want %d", r.errs, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(r.errs[i], w) {
					t.Errorf("failure %q, want it to contain %q", r.errs[i], w)
				}
			}
		})
	}
}

func TestPatterns(t *testing.T) {
	doc := map[string]any{
		"x": map[string]any{"pattern": "b"},
		"y": []any{map[string]any{"pattern": "a"}, map[string]any{"pattern": "b"}},
		"z": map[string]any{"properties": map[string]any{"pattern": map[string]any{"pattern": "c"}}},
	}
	if got, want := Patterns(doc), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
