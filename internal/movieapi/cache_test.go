package movieapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/testdb"
)

// The response cache must never hide a write made by another handle on
// the same database (another process or instance): the next read shows
// it with the right total.
func TestCachedReadsSeeWritesFromAnotherHandle(t *testing.T) {
	db := testdb.New(t)
	store, other := db.Open(t), db.Open(t)
	addNumbered(t, store, 25)
	h := newService(t, store, nil)

	type envelope struct {
		Total int64 `json:"total"`
		List  []struct {
			ID    int64  `json:"id"`
			Title string `json:"title"`
		} `json:"list"`
	}
	read := func(target string) envelope {
		t.Helper()
		var e envelope
		if err := json.Unmarshal(get(t, h, target, http.StatusOK).body, &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	targets := []string{"/api/movies", "/api/jav?pg=2", "/api/movies?fields=id,title&page=2&limit=10", "/api/movies/25"}
	for _, target := range targets {
		get(t, h, target, http.StatusOK)
		get(t, h, target, http.StatusOK)
	}
	addMovies(t, other, movieInput{Movie: catalog.Movie{Name: "From elsewhere"}})
	if e := read("/api/movies"); e.Total != 26 || e.List[0].Title != "From elsewhere" {
		t.Errorf("list after an insert elsewhere: got total %d, first %+v; want 26, From elsewhere", e.Total, e.List[0])
	}
	if e := read("/api/movies?fields=id,title&page=2&limit=10"); e.Total != 26 || e.List[0].ID != 16 {
		t.Errorf("page 2 after an insert elsewhere: got total %d, first id %d; want 26, 16", e.Total, e.List[0].ID)
	}
	if e := read("/api/jav?pg=2"); e.Total != 26 {
		t.Errorf("legacy list after an insert elsewhere: got total %d, want 26", e.Total)
	}

	addMovies(t, other, movieInput{Movie: catalog.Movie{ID: 25, Name: "Renamed elsewhere"}})
	var d struct {
		Data struct {
			Title string `json:"title"`
		} `json:"data"`
	}
	if err := json.Unmarshal(get(t, h, "/api/movies/25", http.StatusOK).body, &d); err != nil {
		t.Fatal(err)
	}
	if d.Data.Title != "Renamed elsewhere" {
		t.Errorf("detail after an update elsewhere: got %q, want %q", d.Data.Title, "Renamed elsewhere")
	}
	for i := 1; i <= 3; i++ {
		if e := read(fmt.Sprintf("/api/movies?limit=1&page=%d", i)); e.Total != 26 {
			t.Errorf("page %d: got total %d, want 26", i, e.Total)
		}
	}
}

// Deep pages from a service that has served lists equal a fresh
// service's, for short and full field sets, on both list forms.
func TestDeepPagesMatchOffsetPages(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 700)
	if err := store.UpsertMovies(context.Background(), []catalog.Movie{{ID: 650, Name: "Changed"}}); err != nil {
		t.Fatal(err)
	}
	warm := newService(t, store, nil)
	get(t, warm, "/api/movies", http.StatusOK)
	for _, target := range []string{
		"/api/movies?fields=id,title,slug,poster2_url,year&limit=1&page=600",
		"/api/movies?limit=2&page=300",
		"/api/jav?fields=id,name,URL_player&pg=30",
		"/api/movies?fields=id,synopsis&limit=1&page=555",
		"/api/movies?limit=1&page=700",
		"/api/movies?limit=1&page=701",
	} {
		cold := newService(t, store, nil)
		want := get(t, cold, target, http.StatusOK).body
		if got := get(t, warm, target, http.StatusOK).body; string(got) != string(want) {
			t.Errorf("%s: warm service's page\n%s\nwant a fresh one's\n%s", target, got, want)
		}
	}
}
