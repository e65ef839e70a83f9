package clipapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// sharedEnv is a clip service on a database that the test can also
// open through a second handle, as another process or instance would.
func sharedEnv(t *testing.T) (*env, catalog.Store) {
	t.Helper()
	db := testdb.New(t)
	store := db.Open(t)
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	return &env{t: t, store: store, handler: cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Logger: logger})}, db.Open(t)
}

// The response cache must never hide a write: each read after a write,
// whoever made it, shows the new clip with the new total.
func TestCachedReadsSeeEveryWrite(t *testing.T) {
	e, other := sharedEnv(t)
	for i := range 3 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("seed %d", i), Platform: "JAV"})
	}
	cookie := e.login()

	targets := []string{"/api/clips", "/api/clips?platform=JAV", "/api/clips?q=sunset", "/api/clips?limit=1&page=2"}
	warm := func() {
		for _, target := range targets {
			for range 2 { // the second read is a cache hit
				if w := e.get(target); w.Code != http.StatusOK {
					t.Fatalf("GET %s: got %d", target, w.Code)
				}
			}
		}
	}
	check := func(how string, wantTotal int64, wantFirst string) {
		t.Helper()
		l := decodeList(t, e.get("/api/clips"))
		if l.Meta.Total != wantTotal || len(l.Data) == 0 || l.Data[0].Title != wantFirst {
			t.Errorf("after %s: got total %d, first %v; want %d, %q", how, l.Meta.Total, l.Data, wantTotal, wantFirst)
		}
		jav := decodeList(t, e.get("/api/clips?platform=JAV"))
		if jav.Meta.Total != wantTotal || jav.Data[0].Title != wantFirst {
			t.Errorf("after %s, platform list: got total %d, want %d", how, jav.Meta.Total, wantTotal)
		}
		search := decodeList(t, e.get("/api/clips?q=sunset"))
		wantSearch := int64(0)
		if strings.Contains(strings.ToLower(wantFirst), "sunset") {
			wantSearch = 1
		}
		if search.Meta.Total < wantSearch {
			t.Errorf("after %s, search: got total %d, want at least %d", how, search.Meta.Total, wantSearch)
		}
	}

	warm()
	w := e.postJSON(http.MethodPost, "/api/clips", `{"title":"Sunset through the API","iframe_url":"https://player.example/v/9","platform":"JAV"}`, cookie)
	if w.Code != http.StatusCreated {
		t.Fatalf("create: got %d, want 201; %s", w.Code, w.Body)
	}
	created := decodeClip(t, w)
	check("a create through the API", 4, "Sunset through the API")
	if got := decodeClip(t, e.get(fmt.Sprint("/api/clips/", created.ID))); got.Title != created.Title {
		t.Errorf("detail after create: got %q, want %q", got.Title, created.Title)
	}

	warm()
	c := catalog.Clip{Title: "Written by another instance", IframeURL: "https://player.example/v/2", Platform: "JAV"}
	if err := other.CreateClip(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	check("a create through a second store handle", 5, "Written by another instance")

	warm()
	if _, err := other.UpdateClip(context.Background(), created.ID, func(c *catalog.Clip) error {
		c.Title = "Renamed elsewhere"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := decodeClip(t, e.get(fmt.Sprint("/api/clips/", created.ID))); got.Title != "Renamed elsewhere" {
		t.Errorf("detail after an update elsewhere: got %q, want %q", got.Title, "Renamed elsewhere")
	}

	warm()
	if w := e.postJSON(http.MethodDelete, fmt.Sprint("/api/clips/", c.ID), "", cookie); w.Code != http.StatusNoContent {
		t.Fatalf("delete: got %d, want 204", w.Code)
	}
	check("a delete through the API", 4, "Renamed elsewhere")
	if w := e.get(fmt.Sprint("/api/clips/", c.ID)); w.Code != http.StatusNotFound {
		t.Errorf("detail after delete: got %d, want 404", w.Code)
	}
}

// Two URLs that differ only in spelling share a cache entry, and two
// that differ in meaning never do.
func TestCacheKeysFollowTheQuery(t *testing.T) {
	e := newEnv(t)
	for i := range 30 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i), Platform: []string{"JAV", "ทวิต"}[i%2]})
	}
	same := [][2]string{
		{"/api/clips", "/api/clips?page=1&limit=20&unknown=x"},
		{"/api/clips?q=Clip", "/api/clips?q=clip"},
		{"/api/clips?limit=500", "/api/clips?limit=100"},
	}
	for _, p := range same {
		a, b := e.get(p[0]), e.get(p[1])
		if a.Body.String() != b.Body.String() {
			t.Errorf("%s and %s: bodies differ", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"/api/clips?q=clip%201", "/api/clips?q=clip1"},
		{"/api/clips?platform=JAV", "/api/clips?platform=%E0%B8%97%E0%B8%A7%E0%B8%B4%E0%B8%95"},
		{"/api/clips?limit=5", "/api/clips?limit=5&page=2"},
	}
	for _, p := range differ {
		a, b := decodeList(t, e.get(p[0])), decodeList(t, e.get(p[1]))
		if fmt.Sprint(a) == fmt.Sprint(b) {
			t.Errorf("%s and %s: got the same answer %v", p[0], p[1], a.Meta)
		}
	}
}

// Deep pages, with and without a filter, are the pages of the stored
// records in list order, before and after a write moves every page.
func TestDeepPagesMatchOffsetPages(t *testing.T) {
	e := newEnv(t)
	batch := make([]catalog.Clip, 700)
	for i := range batch {
		batch[i] = catalog.Clip{Title: fmt.Sprintf("clip %d", i), IframeURL: "https://player.example/v/1",
			Platform: []string{"JAV", "ทวิต"}[i%3%2]}
	}
	if err := e.store.ImportClips(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	compare := func(when string) {
		t.Helper()
		for _, q := range []string{"", "&platform=JAV"} {
			for _, page := range []int{26, 27, 60, 101, 500, 699, 701} {
				target := fmt.Sprintf("/api/clips?limit=1&page=%d%s", page, q)
				platform := ""
				if q != "" {
					platform = "JAV"
				}
				want, wantTotal := e.refClips(platform, catalog.Paging{Page: int64(page), Limit: 1})
				l := decodeList(t, e.get(target))
				var got []int64
				for _, c := range l.Data {
					got = append(got, c.ID)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) || l.Meta.Total != wantTotal {
					t.Errorf("%s %s: got %v total %d, want %v total %d", when, target, got, l.Meta.Total, want, wantTotal)
				}
			}
		}
	}
	compare("before")
	if err := e.store.DeleteClip(context.Background(), 650); err != nil {
		t.Fatal(err)
	}
	compare("after a delete")
}
