package apitest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// CheckRoutes fails t unless the router patterns ("GET /api/clips/{id}")
// inside the document's scope and the document's operations are the
// same set. GET routes also answer HEAD, which the document leaves
// implied; "{$}" (end of path) and "{name...}" (rest of path) are
// written as OpenAPI paths.
func CheckRoutes(t testing.TB, doc []byte, patterns []string) {
	t.Helper()
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			PathItems map[string]map[string]json.RawMessage `json:"pathItems"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("decode document: %v", err)
	}
	documented := map[string]bool{}
	scope := map[string]bool{}
	for path, item := range d.Paths {
		scope[firstSegment(path)] = true
		if ref, ok := item["$ref"]; ok {
			var s string
			json.Unmarshal(ref, &s)
			item = d.Components.PathItems[strings.TrimPrefix(s, "#/components/pathItems/")]
		}
		for method := range item {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				documented[strings.ToUpper(method)+" "+path] = true
			}
		}
	}
	routed := map[string]bool{}
	for _, p := range patterns {
		method, path, _ := strings.Cut(p, " ")
		path = strings.ReplaceAll(path, "{$}", "")
		path = strings.ReplaceAll(path, "...}", "}")
		if scope[firstSegment(path)] {
			routed[method+" "+path] = true
		}
	}
	for _, r := range sorted(routed) {
		if !documented[r] {
			t.Errorf("route %s is not in the OpenAPI document", r)
		}
	}
	for _, o := range sorted(documented) {
		if !routed[o] {
			t.Errorf("the OpenAPI document lists %s, which no route serves", o)
		}
	}
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
