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

// The console edits the score and the Douban id (contract 12) with the
// import's rules: stored in their normal form, shown again in the edit
// form, and a value out of form is a field error beside it that writes
// nothing.
func TestConsoleMovieScore(t *testing.T) {
	c := newConsole(t)
	ctx := context.Background()
	res, _ := c.post("/admin/movies", url.Values{"name": {"Scored"}, "score": {" 8 "}, "douban_id": {"01292052"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d", res.StatusCode)
	}
	id, _ := catalog.ParseID(strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added="))
	if m, err := c.store.GetMovie(ctx, id); err != nil || m.Score != "8.0" || m.DoubanID != "1292052" {
		t.Fatalf("stored: got %q, %q, %v; want 8.0, 1292052", m.Score, m.DoubanID, err)
	}
	_, body := c.get(fmt.Sprintf("/admin/movies/%d/edit", id))
	for _, want := range []string{`name="score"`, `value="8.0"`, `name="douban_id"`, `value="1292052"`, "Douban id"} {
		if !strings.Contains(body, want) {
			t.Errorf("edit form lacks %q", want)
		}
	}
	for _, bad := range []struct{ field, value, msg string }{
		{"score", "10.5", "must be a number from 0.0 to 10.0"},
		{"score", "8,5", "must be a number from 0.0 to 10.0"},
		{"douban_id", "tt0111161", "must be the digits of a Douban id"},
	} {
		form := url.Values{"name": {"Scored"}, bad.field: {bad.value}}
		res, body := c.post(fmt.Sprintf("/admin/movies/%d", id), form)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, bad.msg) {
			t.Errorf("%s %q: got %d, want 422 with %q", bad.field, bad.value, res.StatusCode, bad.msg)
		}
	}
	if m, _ := c.store.GetMovie(ctx, id); m.Score != "8.0" || m.DoubanID != "1292052" {
		t.Errorf("a refused save changed them to %q, %q", m.Score, m.DoubanID)
	}
	if res, _ := c.post(fmt.Sprintf("/admin/movies/%d", id), url.Values{"name": {"Scored"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("clear: got %d", res.StatusCode)
	}
	if m, _ := c.store.GetMovie(ctx, id); m.Score != "" || m.DoubanID != "" {
		t.Errorf("empty fields stored %q, %q, want none", m.Score, m.DoubanID)
	}
}
