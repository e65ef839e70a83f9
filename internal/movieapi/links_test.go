package movieapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/apitest"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
)

// Contract 13: each server carries the prober's status; a server dead
// for longer than --dead-after (the prober marks it Last) is served
// after the live ones in episodes, URL_player and the MacCMS groups.
func TestServedLinkHealth(t *testing.T) {
	ctx := context.Background()
	store := newTestStore(t)
	server := func(name string) catalog.Server {
		return catalog.Server{Name: name, Episodes: []catalog.Episode{{Name: "Full",
			LinkEmbed: "https://" + strings.ToLower(name) + ".example/e", LinkM3U8: "https://" + strings.ToLower(name) + ".example/p.m3u8"}}}
	}
	m := catalog.Movie{Name: "Sunrise", Episodes: []catalog.Server{server("Main"), server("Backup"), server("Third")}}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := store.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
		t.Fatal(err)
	}
	movieID, err := store.MovieIDByKey(ctx, "", "sunrise")
	if err != nil {
		t.Fatal(err)
	}
	h := newService(t, store, nil)
	path := "/api/movies/" + strconv.FormatInt(movieID, 10)
	type served struct {
		Data struct {
			Episodes []struct {
				Name      string `json:"server_name"`
				Status    string `json:"status"`
				CheckedAt string `json:"checked_at"`
			} `json:"episodes"`
		} `json:"data"`
	}
	read := func() (names, states, times []string) {
		var s served
		if err := json.Unmarshal(get(t, h, path, http.StatusOK).body, &s); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Data.Episodes {
			names, states, times = append(names, e.Name), append(states, e.Status), append(times, e.CheckedAt)
		}
		return
	}
	if names, states, times := read(); strings.Join(names, ",") != "Main,Backup,Third" ||
		strings.Join(states, ",") != "unchecked,unchecked,unchecked" || strings.Join(times, ",") != ",," {
		t.Fatalf("before any check: got %v %v %v, want every server unchecked in stored order", names, states, times)
	}

	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if err := store.SaveLinkChecks(ctx, []catalog.LinkResult{{MovieID: movieID, Due: at.Add(time.Hour), Health: []catalog.ServerHealth{
		{Server: "Main", Status: catalog.LinkDead, CheckedAt: at.Unix(), FailedSince: at.Add(-72 * time.Hour).Unix(), Fails: 9, Last: true},
		{Server: "Backup", Status: catalog.LinkDead, CheckedAt: at.Unix(), FailedSince: at.Add(-time.Hour).Unix(), Fails: 2},
		{Server: "Third", Status: catalog.LinkOK, CheckedAt: at.Unix()},
	}}}); err != nil {
		t.Fatal(err)
	}
	names, states, times := read()
	if got := strings.Join(names, ","); got != "Backup,Third,Main" {
		t.Errorf("served order: got %s, want Backup,Third,Main (Main dead past --dead-after, last)", got)
	}
	if got := strings.Join(states, ","); got != "dead,ok,dead" {
		t.Errorf("statuses: got %s, want dead,ok,dead", got)
	}
	if times[0] != "2026-11-27T12:00:00Z" {
		t.Errorf("checked_at: got %q, want 2026-11-27T12:00:00Z", times[0])
	}
	var jav struct {
		Data struct {
			Player struct {
				Data struct {
					Embed string `json:"link_embed"`
				} `json:"server_data"`
			} `json:"URL_player"`
		} `json:"data"`
	}
	if err := json.Unmarshal(get(t, h, "/api/jav/"+strconv.FormatInt(movieID, 10), http.StatusOK).body, &jav); err != nil {
		t.Fatal(err)
	}
	if got := jav.Data.Player.Data.Embed; got != "https://backup.example/e" {
		t.Errorf("URL_player: got %q, want the first served server's embed link", got)
	}
	var vods struct {
		List []struct {
			URL string `json:"vod_play_url"`
		} `json:"list"`
	}
	if err := json.Unmarshal(get(t, h, vodPath+"?ac=detail&ids="+strconv.FormatInt(movieID, 10), http.StatusOK).body, &vods); err != nil {
		t.Fatal(err)
	}
	if len(vods.List) != 1 || !strings.HasPrefix(vods.List[0].URL, "Full$https://backup.example/") ||
		strings.Index(vods.List[0].URL, "main.example") < strings.LastIndex(vods.List[0].URL, "third.example") {
		t.Errorf("MacCMS groups: got %+v, want Backup's groups first and Main's last", vods.List)
	}
}

// post sends body from the client address addr and checks the answer
// against the OpenAPI document.
func post(t *testing.T, h http.Handler, target, addr, body string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	apitest.Check(t, h, req, res.StatusCode, res.Header, b)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// Contract 13: POST /api/movies/{id}/report.
func TestReport(t *testing.T) {
	ctx := context.Background()
	store := newTestStore(t)
	m := catalog.Movie{Name: "Sunrise", Episodes: []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{
		{Name: "Ep 1", LinkM3U8: "https://cdn.example/1.m3u8"}, {Name: "Ep 2", LinkM3U8: "https://cdn.example/2.m3u8"}}}}}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := store.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
		t.Fatal(err)
	}
	id, err := store.MovieIDByKey(ctx, "", "sunrise")
	if err != nil {
		t.Fatal(err)
	}
	var woken atomic.Int64
	h := cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Logger: testLogger(t), Reported: func() { woken.Add(1) }})
	path := "/api/movies/" + strconv.FormatInt(id, 10) + "/report"
	// The queue starts with the new movie due; take it out, as a check would.
	if c, err := store.ClaimLinkChecks(ctx, time.Now(), time.Hour, 10); err != nil || len(c) != 1 {
		t.Fatalf("claim: %v, %v", c, err)
	}
	queued := func() bool {
		c, err := store.ClaimLinkChecks(ctx, time.Now(), time.Hour, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(c) == 1
	}
	for _, c := range []struct {
		name, path, body string
		want             int
	}{
		{"no such movie", "/api/movies/999999/report", `{"server":"Main","episode":"ep-1"}`, http.StatusNotFound},
		{"no such server", path, `{"server":"Backup","episode":"ep-1"}`, http.StatusNotFound},
		{"no such episode", path, `{"server":"Main","episode":"ep-9"}`, http.StatusNotFound},
		{"not JSON", path, `server=Main`, http.StatusBadRequest},
		{"another member", path, `{"server":"Main","episode":"ep-1","dead":true}`, http.StatusBadRequest},
		{"no episode", path, `{"server":"Main"}`, http.StatusBadRequest},
		{"over 1 KiB", path, `{"server":"Main","episode":"ep-1"}` + strings.Repeat(" ", 1024), http.StatusBadRequest},
		{"bad id", "/api/movies/x/report", `{"server":"Main","episode":"ep-1"}`, http.StatusBadRequest},
	} {
		if r := post(t, h, c.path, "203.0.113.7:1000", c.body); r.status != c.want {
			t.Errorf("%s: got %d %s, want %d", c.name, r.status, r.body, c.want)
		}
	}
	if queued() || woken.Load() != 0 {
		t.Fatal("a refused report moved the movie in the queue")
	}
	// A report moves the movie to the front of the queue, once per client
	// address per movie per hour; an IPv6 client counts by its /64.
	for i, c := range []struct {
		addr       string
		wantQueued bool
	}{
		{"203.0.113.7:1000", true},
		{"203.0.113.7:2000", false},
		{"198.51.100.1:1000", true},
		{"[2001:db8::1]:1000", true},
		{"[2001:db8::2]:1000", false},
	} {
		r := post(t, h, path, c.addr, `{"server":"Main","episode":"ep-2"}`)
		if r.status != http.StatusNoContent || len(r.body) != 0 {
			t.Fatalf("report %d: got %d %s, want 204 and no body", i, r.status, r.body)
		}
		if got := queued(); got != c.wantQueued {
			t.Errorf("report %d from %s: queued %v, want %v", i, c.addr, got, c.wantQueued)
		}
	}
	if n := woken.Load(); n != 3 {
		t.Errorf("prober woken %d times, want 3 (the reports that counted)", n)
	}
	// Reports never mark a server dead.
	got, err := store.GetMovie(ctx, id)
	if err != nil || got.Health != nil {
		t.Errorf("health after reports: got %+v, %v; want none", got.Health, err)
	}
	pre := do(t, h, http.MethodOptions, path, "Origin", "https://player.example", "Access-Control-Request-Method", "POST")
	checkHeader(t, pre, "Access-Control-Allow-Methods", "POST, OPTIONS")
}

// Contract 13: a mirrored poster is served at its address with
// immutable caching, an ETag and the movie's surrogate key, and the
// movie's poster fields (and MacCMS vod_pic, vod_pic_slide) point to it.
func TestMirroredPoster(t *testing.T) {
	ctx := context.Background()
	store := newTestStore(t)
	m := catalog.Movie{Name: "Sunrise", Poster1URL: "https://img.example/wide.jpg", Poster2URL: "https://img.example/tall.jpg"}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := store.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
		t.Fatal(err)
	}
	id, _ := store.MovieIDByKey(ctx, "", "sunrise")
	h := newService(t, store, nil)
	detail := "/api/movies/" + strconv.FormatInt(id, 10)
	path := catalog.PosterPath(id, 2, m.Poster2URL)
	get(t, h, path, http.StatusNotFound) // no copy yet
	if !strings.Contains(string(get(t, h, detail, http.StatusOK).body), `"poster2_url":"https://img.example/tall.jpg"`) {
		t.Error("before a copy: want the original poster2_url")
	}
	img := []byte("\xff\xd8\xff a jpeg")
	if err := store.SavePosterImage(ctx, catalog.PosterImage{Key: catalog.PosterKey(m.Poster2URL), URL: m.Poster2URL, JPEG: img}); err != nil {
		t.Fatal(err)
	}
	jobs, err := store.ClaimPosterJobs(ctx, time.Now(), time.Minute, 10)
	if err != nil || len(jobs) != 2 {
		t.Fatalf("claim: %v %v", jobs, err)
	}
	mirror := "https://movies.example" + path
	if err := store.FinishPosterJobs(ctx, []catalog.PosterDone{{Job: jobs[1], Mirror: mirror}}); err != nil {
		t.Fatal(err)
	}
	r := get(t, h, path, http.StatusOK)
	if string(r.body) != string(img) {
		t.Errorf("poster body: got %q, want the stored copy", r.body)
	}
	checkHeader(t, r, "Cache-Control", "public, max-age=31536000, immutable")
	checkHeader(t, r, "Content-Type", "image/jpeg")
	checkHeader(t, r, "ETag", `"`+catalog.PosterKey(m.Poster2URL)+`"`)
	if !strings.Contains(r.header.Get("Surrogate-Key"), "movie-"+strconv.FormatInt(id, 10)) {
		t.Errorf("Surrogate-Key: got %q, want the movie's key", r.header.Get("Surrogate-Key"))
	}
	if r := get(t, h, path, http.StatusNotModified, "If-None-Match", r.header.Get("ETag")); len(r.body) != 0 {
		t.Errorf("304 with a body")
	}
	body := string(get(t, h, detail, http.StatusOK).body)
	if !strings.Contains(body, `"poster2_url":"`+mirror+`"`) || !strings.Contains(body, `"poster1_url":"https://img.example/wide.jpg"`) {
		t.Errorf("after a copy: got %s, want poster2_url the mirror and poster1_url the original", body)
	}
	if vod := string(get(t, h, vodPath+"?ac=detail&ids="+strconv.FormatInt(id, 10), http.StatusOK).body); !strings.Contains(vod, `"vod_pic":"`+mirror+`"`) {
		t.Errorf("MacCMS vod_pic: got %s, want the mirror", vod)
	}
	// An old KEY and a changed original URL: 404, and the original served.
	get(t, h, catalog.PosterPath(id, 2, "https://img.example/old.jpg"), http.StatusNotFound)
	get(t, h, catalog.PosterPath(id, 1, m.Poster2URL), http.StatusNotFound)
	changed, _ := store.GetMovie(ctx, id)
	changed.Poster2URL = "https://img.example/new.jpg"
	changed.UpdatedAt = time.Time{}
	if err := store.UpdateMovie(ctx, &changed); err != nil {
		t.Fatal(err)
	}
	get(t, h, path, http.StatusNotFound)
	if !strings.Contains(string(get(t, h, detail, http.StatusOK).body), `"poster2_url":"https://img.example/new.jpg"`) {
		t.Error("after a change: want the new original poster2_url")
	}
}
