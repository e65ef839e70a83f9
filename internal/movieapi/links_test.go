package movieapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
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
	id := store.(interface {
		MovieIDByKey(context.Context, string, string) (int64, error)
	})
	movieID, err := id.MovieIDByKey(ctx, "", "sunrise")
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
		!strings.HasSuffix(vods.List[0].URL, "$$$Full$https://main.example/p.m3u8") {
		t.Errorf("MacCMS groups: got %+v, want Backup's groups first and Main's last", vods.List)
	}
}
