package admin_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
)

// The Dead links page (contract 13): dead servers by source, and a
// button that puts the movie first in the prober's queue.
func TestConsoleDeadLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := storeWithAnn(t)
	m := catalog.Movie{Name: "Sunrise", Episodes: []catalog.Server{
		{Name: "peer: Main", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://p.example/e"}}},
		{Name: "Own", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://o.example/e"}}}}}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := store.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
		t.Fatal(err)
	}
	id, _ := store.MovieIDByKey(ctx, "", "sunrise")
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if _, err := store.ClaimLinkChecks(ctx, at, time.Hour, 10); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveLinkChecks(ctx, []catalog.LinkResult{{MovieID: id, Due: at.Add(24 * time.Hour), Health: []catalog.ServerHealth{
		{Server: "peer: Main", Status: catalog.LinkDead, CheckedAt: at.Unix(), FailedSince: at.Add(-time.Hour).Unix(), Fails: 2, Problem: "answered 404 Not Found"},
		{Server: "Own", Status: catalog.LinkOK, CheckedAt: at.Unix()}}}}); err != nil {
		t.Fatal(err)
	}
	woken := 0
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Recheck: func() { woken++ }}))
	defer srv.Close()
	c := loggedIn(t, store, srv.URL)
	res, body := c.get("/admin/links")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "peer: Main") || !strings.Contains(body, "answered 404 Not Found") ||
		strings.Contains(body, ">Own<") || !strings.Contains(body, `data-dead-link="`+strconv.FormatInt(id, 10)+`"`) {
		t.Fatalf("page: got %d\n%s\nwant the dead server of peer with its problem, not the live one", res.StatusCode, body)
	}
	if res, _ := c.post("/admin/links/"+strconv.FormatInt(id, 10)+"/recheck", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("check again: got %d, want 303", res.StatusCode)
	}
	if claimed, _ := store.ClaimLinkChecks(ctx, at.Add(time.Minute), time.Hour, 10); len(claimed) != 1 || woken != 1 {
		t.Errorf("after check again: claimed %d, woken %d; want the movie first in the queue and the prober woken", len(claimed), woken)
	}
	if res, _ := c.post("/admin/links/999999/recheck", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("check again of no movie: got %d, want 404", res.StatusCode)
	}
}
