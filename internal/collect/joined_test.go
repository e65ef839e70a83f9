package collect_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/testdb"
)

// A record that joins a movie of the same name and year adds its
// servers named "SOURCE: SERVER", SERVER being the server read from
// the notes (contract 10): both groups of the source's server Main
// become one server "peer: Main".
func TestJoinedServersKeepTheirNames(t *testing.T) {
	ctx := context.Background()
	st := testdb.Open(t)
	imported := catalog.Movie{Name: "Harbour", Year: "2020",
		Episodes: []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://own.example/h"}}}}}
	if err := imported.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := st.UpsertMovies(ctx, []catalog.Movie{imported}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"code":1,"msg":"ok","page":1,"pagecount":1,"limit":20,"total":1,"list":[`+
			`{"vod_id":7,"vod_name":"Harbour","vod_year":"2020","vod_play_from":"m3u8$$$iframe","vod_play_note":"Main$$$Main",`+
			`"vod_play_url":"Full$https://peer.example/h.m3u8$$$Full$https://peer.example/h"}]}`)
	}))
	t.Cleanup(srv.Close)
	if _, _, err := collect.Run(ctx, st, collect.Options{Source: "peer", URL: srv.URL + "/api.php/provide/vod/", Fetch: local}); err != nil {
		t.Fatal(err)
	}
	m, err := st.GetMovie(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []catalog.Server{
		{Name: "Main", Episodes: []catalog.Episode{{Name: "Full", Slug: "full", LinkEmbed: "https://own.example/h"}}},
		{Name: "peer: Main", Episodes: []catalog.Episode{{Name: "Full", Slug: "full", LinkEmbed: "https://peer.example/h", LinkM3U8: "https://peer.example/h.m3u8"}}},
	}
	if !reflect.DeepEqual(m.Episodes, want) {
		t.Errorf("servers:\n got %+v\nwant %+v", m.Episodes, want)
	}
}
