package maccms_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/movieapi/movietest"
)

// vodRecord is the part of a MacCMS record these tests read.
type vodRecord struct {
	ID       int64  `json:"vod_id"`
	Remarks  string `json:"vod_remarks"`
	From     string `json:"vod_play_from"`
	URL      string `json:"vod_play_url"`
	Note     string `json:"vod_play_note"`
	Serial   string `json:"vod_serial"`
	DoubanID *int   `json:"vod_douban_id"`
}

func vodRecords(t *testing.T, h http.Handler, target string) (ids []int64, recs []vodRecord) {
	t.Helper()
	var env struct {
		Total int64
		List  []vodRecord
	}
	if err := json.Unmarshal(movietest.Get(t, h, target, http.StatusOK).Body, &env); err != nil {
		t.Fatal(err)
	}
	for _, r := range env.List {
		ids = append(ids, r.ID)
	}
	if env.Total != int64(len(env.List)) {
		t.Fatalf("%s: total %d for %d records on one page", target, env.Total, len(env.List))
	}
	return ids, env.List
}

// Parity with MacCMS's Provide.php (contract 6): what real collector
// configurations send.
func TestVodProvideParity(t *testing.T) {
	store := movietest.Store(t)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var in []movietest.Movie
	for i := 1; i <= 4; i++ {
		m := movietest.Movie{Movie: catalog.Movie{ID: int64(i), Name: fmt.Sprintf("Movie %d", i), UpdatedAt: base.Add(time.Duration(i) * time.Hour)},
			Lists: [catalog.NumLists][]string{{"Drama"}}}
		switch i {
		case 1: // embed only
			m.Episodes = catalog.ShorthandEpisodes("https://p.example/1", "")
		case 2: // HLS only, a series of 3
			m.Episodes = []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{
				{Name: "Ep 1", LinkM3U8: "https://cdn.example/2/1.m3u8"}, {Name: "Ep 2", LinkM3U8: "https://cdn.example/2/2.m3u8"},
				{Name: "Ep 3", LinkM3U8: "https://cdn.example/2/3.m3u8"}}}}
		case 3: // both kinds, two servers
			m.Episodes = []catalog.Server{
				{Name: "Main", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://p.example/3", LinkM3U8: "https://cdn.example/3.m3u8"}}},
				{Name: "Backup", Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: "https://backup.example/3.m3u8"}}}}
		}
		in = append(in, m)
	}
	movietest.Add(t, store, in...)
	h := movietest.Service(t, store, nil)
	newestFirst := []int64{4, 3, 2, 1}
	tests := []struct {
		target string
		want   []int64
	}{
		// 0 counts as absent for pg, pagesize, limit, t and h.
		{movietest.VodPath + "?ac=detail&pg=0&pagesize=0&t=0&h=0", newestFirst},
		{movietest.VodPath + "?ac=detail&limit=0", newestFirst},
		// ids that are not numbers are dropped; none left, none match.
		{movietest.VodPath + "?ac=detail&ids=2,x,,3,-1,0", []int64{3, 2}},
		{movietest.VodPath + "?ac=detail&ids=x,y", nil},
		// from=CODE keeps the movies that have such a group.
		{movietest.VodPath + "?ac=detail&from=m3u8", []int64{3, 2}},
		{movietest.VodPath + "?ac=detail&from=iframe", []int64{3, 1}},
		{movietest.VodPath + "?ac=detail&from=embed", nil},
		// sort_direction=asc reverses the order; isend is ignored.
		{movietest.VodPath + "?ac=detail&sort_direction=asc", []int64{1, 2, 3, 4}},
		{movietest.VodPath + "?ac=detail&sort_direction=asc&from=m3u8&isend=0", []int64{2, 3}},
		{movietest.VodPath + "?ac=detail&isend=1", newestFirst},
		// /KEY/VALUE pairs in the path are query parameters.
		{"/api.php/provide/vod/from/m3u8/ac/detail/", []int64{3, 2}},
		{"/api.php/provide/vod/ac/detail/sort_direction/asc?from=iframe", []int64{1, 3}},
		{"/api.php/provide/vod/ac/detail/from/iframe/at/json/ids/1,2/", []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			if got, _ := vodRecords(t, h, tt.target); !slices.Equal(got, tt.want) {
				t.Errorf("got ids %v, want %v", got, tt.want)
			}
		})
	}

	// from=m3u8 keeps only that group, with its note; remarks, serial
	// and the Douban id come from the episodes.
	_, recs := vodRecords(t, h, movietest.VodPath+"?ac=detail&from=m3u8")
	if r := recs[0]; r.ID != 3 || r.From != "m3u8$$$m3u8" || r.Note != "Main$$$Backup" || r.URL != "Full$https://cdn.example/3.m3u8$$$Full$https://backup.example/3.m3u8" {
		t.Errorf("movie 3 with from=m3u8: %+v", r)
	}
	// Every group: each server's m3u8 group, then its iframe group, the
	// note naming the server; list mode joins the codes with ",".
	_, recs = vodRecords(t, h, movietest.VodPath+"?ac=detail&ids=3")
	if r := recs[0]; r.From != "m3u8$$$iframe$$$m3u8" || r.Note != "Main$$$Main$$$Backup" ||
		r.URL != "Full$https://cdn.example/3.m3u8$$$Full$https://p.example/3$$$Full$https://backup.example/3.m3u8" {
		t.Errorf("movie 3: %+v", r)
	}
	if _, recs = vodRecords(t, h, movietest.VodPath+"?ac=list&ids=3"); recs[0].From != "m3u8,iframe,m3u8" {
		t.Errorf("movie 3 in list mode: vod_play_from %q, want %q", recs[0].From, "m3u8,iframe,m3u8")
	}
	_, recs = vodRecords(t, h, movietest.VodPath+"?ac=detail")
	want := map[int64][2]string{4: {"", "0"}, 3: {"Full", "1"}, 2: {"Ep 3", "3"}, 1: {"Full", "1"}}
	for _, r := range recs {
		if got := [2]string{r.Remarks, r.Serial}; got != want[r.ID] || r.DoubanID == nil || *r.DoubanID != 0 {
			t.Errorf("movie %d: remarks %q serial %q douban %v, want %q and vod_douban_id 0", r.ID, r.Remarks, r.Serial, r.DoubanID, want[r.ID])
		}
	}

	// The XML form: one <dd> per group, in order, flagged with its code
	// and noted with its server.
	rss := parseRSS(t, movietest.Get(t, h, "/api.php/provide/vod/at/xml/ids/3/ac/detail", http.StatusOK).Body)
	if len(rss.List.Videos) != 1 || rss.List.Videos[0].DL == nil {
		t.Fatalf("XML: %+v", rss.List)
	}
	var flags []string
	for _, dd := range rss.List.Videos[0].DL.DD {
		flags = append(flags, dd.Flag+" "+dd.Note+" "+strings.SplitN(dd.URL, "$", 2)[0])
	}
	if want := []string{"m3u8 Main Full", "iframe Main Full", "m3u8 Backup Full"}; !slices.Equal(flags, want) {
		t.Errorf("XML groups: got %q, want %q", flags, want)
	}
}
