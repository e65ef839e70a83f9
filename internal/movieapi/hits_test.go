package movieapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/hits"
	"catalog/internal/search/searchtest"
)

// Contract 12: POST /api/movies/{id}/hit counts one play per client
// address per movie per hour, silently, and the counts are served as
// hits, hits_day, hits_week and hits_month (strings, as every scalar
// but the id) and as MacCMS's vod_hits... (numbers) once their batch is
// written.
func TestHitBeacon(t *testing.T) {
	ctx := context.Background()
	store := newTestStore(t)
	addMovies(t, store, sunrise, movieInput{Movie: catalog.Movie{ID: 2, Name: "Dusk"}, lists: [catalog.NumLists][]string{{"Thai"}}})
	counter := hits.New(store, hits.Options{})
	h := cli.MovieService(cli.ServiceDeps{Store: store, Logger: testLogger(t), Hits: counter,
		MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)})

	served := func(id int64) (fields map[string]string, vod map[string]int64) {
		t.Helper()
		var detail struct{ Data map[string]string }
		body := get(t, h, "/api/movies/"+strconv.FormatInt(id, 10)+"?fields=hits,hits_day,hits_week,hits_month", http.StatusOK).body
		if err := json.Unmarshal(body, &detail); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		var vods struct{ List []map[string]any }
		body = get(t, h, vodPath+"?ac=detail&ids="+strconv.FormatInt(id, 10), http.StatusOK).body
		if err := json.Unmarshal(body, &vods); err != nil || len(vods.List) != 1 {
			t.Fatalf("%s: %v", body, err)
		}
		vod = map[string]int64{}
		for _, k := range []string{"vod_hits", "vod_hits_day", "vod_hits_week", "vod_hits_month"} {
			n, ok := vods.List[0][k].(float64)
			if !ok {
				t.Fatalf("%s is %T, want a number", k, vods.List[0][k])
			}
			vod[k] = int64(n)
		}
		return detail.Data, vod
	}
	before, err := store.GetMovie(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Served before any hit (and so cached by the service).
	if f, v := served(1); f["hits"] != "0" || v["vod_hits"] != 0 {
		t.Fatalf("before any hit: %v %v", f, v)
	}

	for i, c := range []struct {
		path, addr string
		want       int
	}{
		{"/api/movies/1/hit", "203.0.113.7:1000", http.StatusNoContent},
		{"/api/movies/1/hit", "203.0.113.7:2000", http.StatusNoContent}, // the same client: not counted
		{"/api/movies/1/hit", "198.51.100.1:1000", http.StatusNoContent},
		{"/api/movies/1/hit", "[2001:db8::1]:1000", http.StatusNoContent},
		{"/api/movies/1/hit", "[2001:db8::2]:1000", http.StatusNoContent}, // the same /64
		{"/api/movies/2/hit", "203.0.113.7:1000", http.StatusNoContent},   // another movie
		{"/api/movies/999/hit", "203.0.113.8:1000", http.StatusNotFound},
		{"/api/movies/x/hit", "203.0.113.8:1000", http.StatusBadRequest},
		{"/api/movies/0/hit", "203.0.113.8:1000", http.StatusBadRequest},
	} {
		r := post(t, h, c.path, c.addr, "")
		if r.status != c.want {
			t.Errorf("hit %d %s from %s: got %d %s, want %d", i, c.path, c.addr, r.status, r.body, c.want)
		}
		if r.status == http.StatusNoContent {
			if len(r.body) != 0 || r.header.Get("Cache-Control") != "no-store" || r.header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("hit %d: body %q, headers %v; want none, no-store and CORS", i, r.body, r.header)
			}
		}
	}
	if r := post(t, h, "/api/movies/999/hit", "203.0.113.8:1000", ""); r.status != http.StatusNotFound {
		t.Errorf("no such movie, again: %d, want 404 again", r.status)
	}
	checkError(t, post(t, h, "/api/movies/999/hit", "203.0.113.9:1", ""), http.StatusNotFound, "movie not found")

	// Nothing written until the batch.
	if f, _ := served(1); f["hits"] != "0" {
		t.Errorf("before the batch: hits %q, want 0", f["hits"])
	}
	if err := counter.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]int64{1: 3, 2: 1} {
		f, v := served(id)
		for _, k := range []string{"hits", "hits_day", "hits_week", "hits_month"} {
			if f[k] != strconv.FormatInt(want, 10) || v["vod_"+k] != want {
				t.Errorf("movie %d: %s %q, vod_%s %d; want %d", id, k, f[k], k, v["vod_"+k], want)
			}
		}
	}
	if m, err := store.GetMovie(ctx, 1); err != nil || !m.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("updated_at after hits: %v, %v; want %v kept", m.UpdatedAt, err, before.UpdatedAt)
	}

	pre := do(t, h, http.MethodOptions, "/api/movies/1/hit", "Origin", "https://player.example", "Access-Control-Request-Method", "POST")
	if pre.status != http.StatusNoContent {
		t.Errorf("preflight: %d", pre.status)
	}
	checkHeader(t, pre, "Access-Control-Allow-Methods", "POST, OPTIONS")
	if r := do(t, h, http.MethodGet, "/api/movies/1/hit"); r.status != http.StatusMethodNotAllowed {
		t.Errorf("GET of the beacon: %d, want 405", r.status)
	}
}

// A service given no counter (movieapi.Config.Hits nil: tests, tools)
// answers the beacon as contract 12 says, 204 or 404, and counts
// nothing: only serve builds and runs the counter, so no batch is ever
// written behind the caller's back.
func TestHitBeaconWithoutCounter(t *testing.T) {
	store := newTestStore(t)
	addMovies(t, store, sunrise)
	h := cli.MovieService(cli.ServiceDeps{Store: store, Logger: testLogger(t), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies)})
	for _, c := range []struct {
		path string
		want int
	}{
		{"/api/movies/1/hit", http.StatusNoContent},
		{"/api/movies/1/hit", http.StatusNoContent},
		{"/api/movies/999/hit", http.StatusNotFound},
		{"/api/movies/x/hit", http.StatusBadRequest},
	} {
		if r := post(t, h, c.path, "203.0.113.7:1000", ""); r.status != c.want {
			t.Errorf("%s: got %d %s, want %d", c.path, r.status, r.body, c.want)
		}
	}
	if m, err := store.GetMovie(context.Background(), 1); err != nil || m.Hits != (catalog.Hits{}) {
		t.Errorf("stored hits: %+v, %v; want none", m.Hits, err)
	}
}
