package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// The console edits runtime_minutes, an integer member of the field
// table, as a number input: empty is 0, and what is not a whole number
// from 0 to 10000 is a field error beside it that writes nothing.
func TestConsoleMovieRuntime(t *testing.T) {
	c := newConsole(t)
	ctx := context.Background()
	res, _ := c.post("/admin/movies", url.Values{"name": {"Timed"}, "runtime_minutes": {" 124 "}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d", res.StatusCode)
	}
	id, _ := catalog.ParseID(strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added="))
	if m, err := c.store.GetMovie(ctx, id); err != nil || m.RuntimeMinutes != 124 {
		t.Fatalf("stored runtime: got %d, %v; want 124", m.RuntimeMinutes, err)
	}
	_, body := c.get(fmt.Sprintf("/admin/movies/%d/edit", id))
	if want := `name="runtime_minutes" type="number" value="124"`; !strings.Contains(body, want) {
		t.Errorf("edit form lacks %q", want)
	}
	for _, bad := range []string{"abc", "-1", "10001", "1.5"} {
		res, body := c.post(fmt.Sprintf("/admin/movies/%d", id), url.Values{"name": {"Timed"}, "runtime_minutes": {bad}})
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "must be a whole number from 0 to 10000") {
			t.Errorf("runtime %q: got %d, want 422 with the field's range", bad, res.StatusCode)
		}
	}
	if m, _ := c.store.GetMovie(ctx, id); m.RuntimeMinutes != 124 {
		t.Errorf("a refused save changed the runtime to %d", m.RuntimeMinutes)
	}
	if res, _ := c.post(fmt.Sprintf("/admin/movies/%d", id), url.Values{"name": {"Timed"}, "runtime_minutes": {""}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("clear: got %d", res.StatusCode)
	}
	if m, _ := c.store.GetMovie(ctx, id); m.RuntimeMinutes != 0 {
		t.Errorf("an empty runtime stored %d, want 0", m.RuntimeMinutes)
	}
}
