package apitest

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"
)

// CheckPatterns fails t unless the document has at least one schema
// "pattern" and every one compiles as an RE2 expression (Go's regexp).
// JSON Schema patterns are ECMA-262 expressions; generators and
// validators written in Go compile them with RE2, so a pattern must sit
// in what the two dialects share: "\x00" escapes, not "\u0000".
// CI compiles the same patterns as ECMA-262 with node.
func CheckPatterns(t testing.TB, doc []byte) {
	t.Helper()
	var d any
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("decode document: %v", err)
	}
	found := Patterns(d)
	if len(found) == 0 {
		t.Errorf("the document has no \"pattern\": nothing was checked")
	}
	for _, p := range found {
		if _, err := regexp.Compile(p); err != nil {
			t.Errorf("pattern %q does not compile as RE2: %v", p, err)
		}
	}
}

// Patterns returns the distinct string values of "pattern" members
// anywhere in a decoded JSON document, sorted. A "pattern" whose value
// is not a string (a property named pattern) is not one.
func Patterns(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if s, ok := child.(string); ok && k == "pattern" {
					out = append(out, s)
					continue
				}
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(v)
	slices.Sort(out)
	return slices.Compact(out)
}
