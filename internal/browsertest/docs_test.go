package browsertest

import (
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAPIReference opens /api/docs on both services: the page renders
// every operation of the served document under its strict CSP (the
// script runs only if the policy allows it), and "Try it" calls the
// service from the page.
func TestAPIReference(t *testing.T) {
	b := start(t)
	movies := httptest.NewServer(cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, b.store, catalog.SearchMovies), Store: b.store, Logger: slog.New(slog.DiscardHandler), Version: "browser-test"}))
	t.Cleanup(movies.Close)

	for _, tt := range []struct {
		name, base string
		ops        []string // operations the page must show
	}{
		{"clips", b.base, []string{"GET /api/clips", "POST /api/clips", "PATCH /api/clips/{id}", "DELETE /api/clips/{id}", "GET /api/platforms"}},
		{"movies", movies.URL, []string{"GET /api/movies", "GET /api/jav", "GET /api/movies/snapshot", "GET /api.php/provide/vod"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b.t = t
			b.do("open "+tt.name+" reference", chromedp.Navigate(tt.base+"/api/docs"))
			b.waitFor("rendered", `document.getElementById("reference").dataset.rendered === "true"`)
			b.shot("api-docs-" + tt.name)
			nav := b.text("nav")
			for _, op := range tt.ops {
				if !strings.Contains(nav, op) {
					t.Errorf("reference lacks %s; it lists:\n%s", op, nav)
				}
			}
			// Try the health check from the page.
			b.do("open try it", chromedp.Click(chromedp.CSS(`#health details.tryit summary`)))
			b.do("send", chromedp.Click(chromedp.CSS(`#health form.try button[type=submit]`)))
			b.waitFor("try it result", `(document.querySelector("#health .result").textContent || "").includes("200")`)
			if got := b.text("#health .result"); !strings.Contains(got, `"status": "ok"`) {
				t.Errorf("try it: got %q, want the health answer", got)
			}
		})
	}
}
