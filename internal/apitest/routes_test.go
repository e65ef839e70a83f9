package apitest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder keeps the failures CheckRoutes reports instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckRoutes(t *testing.T) {
	doc := []byte(`{"paths": {
		"/api/a": {"get": {}, "options": {}},
		"/api/b/{id}": {"delete": {}},
		"/api.php/x/": {"$ref": "#/components/pathItems/X"}},
		"components": {"pathItems": {"X": {"get": {}}}}}`)
	same := []string{"GET /api/a", "OPTIONS /api/a", "DELETE /api/b/{id}", "GET /api.php/x/{$}", "GET /admin", "POST /static/x.css"}
	tests := []struct {
		name     string
		patterns []string
		want     []string // parts of the failures, in order
	}{
		{"same set; pages outside the scope ignored", same, nil},
		{"an undocumented route", append(same, "POST /api/a"), []string{"route POST /api/a is not in"}},
		{"a documented operation without a route", same[1:], []string{"lists GET /api/a, which no route"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckRoutes(r, doc, tt.patterns)
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
