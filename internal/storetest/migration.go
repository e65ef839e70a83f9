package storetest

import (
	"context"
	"reflect"
	"testing"

	"catalog/internal/catalog"
)

// MigratedLinks are the link_embed values an engine's migration test
// stores before migration 00008, by movie id: none, a plain one, and
// one with the characters JSON and MacCMS escape.
var MigratedLinks = map[int64]string{
	1: "",
	2: "https://player.example.com/embed/1",
	3: `https://p.example/e/ตอน?a="q"&b=\x$#y/z`,
}

// CheckMigratedEpisodes checks the movies of MigratedLinks after the
// migration: each link is server Main with episode Full, stored (raw
// gives the stored episodes text and play_kinds of a movie) exactly as
// the store writes it, and URL_player still gives the link.
func CheckMigratedEpisodes(t *testing.T, s catalog.Store, raw func(id int64) (string, int64)) {
	t.Helper()
	for id, link := range MigratedLinks {
		m, err := s.GetMovie(context.Background(), id)
		noErr(t, err, "GetMovie")
		want := catalog.ShorthandEpisodes(link, "")
		if want != nil {
			want[0].Episodes[0].Slug = "full"
		}
		if !reflect.DeepEqual(m.Episodes, want) {
			t.Errorf("movie %d: episodes %+v, want %+v", id, m.Episodes, want)
		}
		text, kinds := raw(id)
		if wantText := catalog.EpisodesJSON(want); text != wantText || kinds != catalog.PlayKinds(want) {
			t.Errorf("movie %d: stored %s (play_kinds %d), want %s (%d)", id, text, kinds, wantText, catalog.PlayKinds(want))
		}
		fs, _ := catalog.ParseFields("URL_player", true)
		wantPlayer := `{"URL_player":{"server_data":{"link_embed":` + string(catalog.AppendJSONString(nil, link)) + `}}}`
		if got := string(m.AppendJSON(nil, fs, true)); got != wantPlayer {
			t.Errorf("movie %d: %s, want %s", id, got, wantPlayer)
		}
	}
}
