package movieapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// playerApp is how one of the field's player apps reads a MacCMS
// record's play fields: the addresses it finds to play, and whether it
// can play an address (hls: only HLS, which its player takes).
type playerApp struct {
	name string
	ac   string // what it asks for records with
	read func(from, url string) []string
	hls  bool
}

// The apps' rules, read from their own code.
var playerApps = []playerApp{
	// LibreTV (js/api.js, detail with ac=videolist&ids=): the first
	// group only, "#" between episodes, the part after the first "$",
	// kept when it starts with http:// or https://; its player is
	// hls.js.
	{name: "LibreTV", ac: "videolist", hls: true, read: func(_, url string) []string {
		var out []string
		for _, ep := range strings.Split(strings.Split(url, "$$$")[0], "#") {
			if parts := strings.Split(ep, "$"); len(parts) > 1 &&
				(strings.HasPrefix(parts[1], "http://") || strings.HasPrefix(parts[1], "https://")) {
				out = append(out, parts[1])
			}
		}
		return out
	}},
	// LunaTV (src/lib/downstream.ts, ac=videolist): every group, each
	// episode NAME$URL in exactly two parts whose URL ends in .m3u8;
	// the group with the most such episodes wins.
	{name: "LunaTV", ac: "videolist", hls: true, read: func(_, url string) []string {
		var best []string
		for _, group := range strings.Split(url, "$$$") {
			var eps []string
			for _, ep := range strings.Split(group, "#") {
				if parts := strings.Split(ep, "$"); len(parts) == 2 && strings.HasSuffix(parts[1], ".m3u8") {
					eps = append(eps, parts[1])
				}
			}
			if len(eps) > len(best) {
				best = eps
			}
		}
		return best
	}},
	// FongMi TV (bean/Vod.setVodFlags, bean/Flag.createEpisode):
	// vod_play_from and vod_play_url split on "$$$", a group kept when
	// its code is not empty; episodes on "#", the address after "$" (the
	// whole piece when there is none). It plays embed pages and HLS.
	{name: "FongMi", ac: "detail", read: func(from, url string) []string {
		flags, urls := strings.Split(from, "$$$"), strings.Split(url, "$$$")
		var out []string
		for i, flag := range flags {
			if flag == "" || i >= len(urls) {
				continue
			}
			for _, ep := range strings.Split(urls[i], "#") {
				if parts := strings.Split(ep, "$"); len(parts) > 1 {
					out = append(out, parts[1])
				} else {
					out = append(out, ep)
				}
			}
		}
		return out
	}},
}

// Each player app finds something to play in every demo movie that has
// an HLS link: an HLS address for the apps that play only HLS. FongMi,
// which reads every group, finds every link of every episode. The demo
// catalog has series, titles on two servers and titles with both kinds
// of link.
func TestDemoCatalogPlays(t *testing.T) {
	store := newTestStore(t)
	seedDemo(t, store, 1, 60)
	h := newService(t, store, nil)
	var series, twoServers, bothKinds int
	for _, app := range playerApps {
		t.Run(app.name, func(t *testing.T) {
			var env struct {
				List []struct {
					ID   int64  `json:"vod_id"`
					From string `json:"vod_play_from"`
					URL  string `json:"vod_play_url"`
				}
			}
			if err := json.Unmarshal(get(t, h, vodPath+"?ac="+app.ac+"&pagesize=100", http.StatusOK).body, &env); err != nil {
				t.Fatal(err)
			}
			if len(env.List) != 60 {
				t.Fatalf("got %d records, want 60", len(env.List))
			}
			for _, v := range env.List {
				m, err := store.GetMovie(context.Background(), v.ID)
				if err != nil {
					t.Fatal(err)
				}
				found := app.read(v.From, v.URL)
				hls, links := map[string]bool{}, map[string]bool{}
				for _, s := range m.Episodes {
					for _, e := range s.Episodes {
						hls[e.LinkM3U8] = e.LinkM3U8 != ""
						links[e.LinkM3U8], links[e.LinkEmbed] = e.LinkM3U8 != "", e.LinkEmbed != ""
					}
				}
				delete(hls, "")
				delete(links, "")
				playable := slices.ContainsFunc(found, func(u string) bool { return hls[u] || (!app.hls && links[u]) })
				if len(hls) > 0 && !playable {
					t.Errorf("movie %d: %s finds nothing to play in %q (from %q)", v.ID, app.name, found, v.From)
				}
				if app.name == "FongMi" {
					for link := range links {
						if !slices.Contains(found, link) {
							t.Errorf("movie %d: %s does not find %s", v.ID, app.name, link)
						}
					}
					if len(hls) > 1 {
						series++
					}
					if len(m.Episodes) > 1 {
						twoServers++
					}
					if strings.Contains(v.From, "iframe") && strings.Contains(v.From, "m3u8") {
						bothKinds++
					}
				}
			}
		})
	}
	if series == 0 || twoServers == 0 || bothKinds == 0 {
		t.Errorf("demo catalog: %d series, %d titles on two servers, %d with both link kinds; want some of each",
			series, twoServers, bothKinds)
	}
}
