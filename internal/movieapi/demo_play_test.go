package movieapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The field's players get a playable list from the demo catalog, read
// with the published MacCMS rules (groups on "$$$", episodes on "#",
// name and address on "$"): an HLS address for every episode that has
// one, several episodes for a series, several groups for a two-server
// title.
func TestDemoCatalogPlays(t *testing.T) {
	store := newTestStore(t)
	seedDemo(t, store, 1, 60)
	h := newService(t, store, nil)
	var env struct {
		List []struct {
			ID   int64  `json:"vod_id"`
			From string `json:"vod_play_from"`
			URL  string `json:"vod_play_url"`
		}
	}
	if err := json.Unmarshal(get(t, h, vodPath+"?ac=detail&pagesize=100", http.StatusOK).body, &env); err != nil {
		t.Fatal(err)
	}
	var series, twoServers, bothKinds int
	for _, v := range env.List {
		m, err := store.GetMovie(context.Background(), v.ID)
		if err != nil {
			t.Fatal(err)
		}
		eps := splitPlayList(v.From, v.URL)
		hls := map[string]bool{}
		groups := 0
		for _, e := range eps {
			if e.from == "m3u8" {
				hls[e.url] = true
			}
		}
		for _, s := range m.Episodes {
			for _, e := range s.Episodes {
				if e.LinkM3U8 != "" && !hls[e.LinkM3U8] {
					t.Errorf("movie %d: %s of %s has no HLS address in the play list", v.ID, e.Name, s.Name)
				}
			}
		}
		groups = len(strings.Split(v.From, "$$$"))
		if len(hls) > 1 {
			series++
		}
		if len(m.Episodes) > 1 && groups > 2 {
			twoServers++
		}
		if strings.Contains(v.From, "iframe") && strings.Contains(v.From, "m3u8") {
			bothKinds++
		}
	}
	if series == 0 || twoServers == 0 || bothKinds == 0 {
		t.Errorf("demo catalog of %d: %d series, %d titles on two servers, %d with both link kinds; want some of each",
			len(env.List), series, twoServers, bothKinds)
	}
}
