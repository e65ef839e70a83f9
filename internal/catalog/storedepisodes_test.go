package catalog_test

import (
	"reflect"
	"testing"

	"catalog/internal/catalog"
)

// The stored form of episodes is read without the general decoder when
// it is exactly what AppendEpisodesJSON wrote, with the same servers as
// ParseEpisodes gives; any other text is left to ParseEpisodes.
func TestParseStoredEpisodes(t *testing.T) {
	shorthand, series := demoEpisodes(t)
	written := func(servers []catalog.Server) string { return catalog.EpisodesJSON(servers) }
	for _, tc := range []struct {
		name string
		text string
		fast bool // read by the stored-form reader
	}{
		{"demo shorthand", string(shorthand), true},
		{"demo series on two servers", string(series), true},
		{"none", `[]`, true},
		{"a server without episodes", `[{"server_name":"Main","server_data":[]}]`, true},
		{"empty strings", written([]catalog.Server{{Name: "", Episodes: []catalog.Episode{{}}}}), true},
		{"Thai and CJK, $ and # in links", written([]catalog.Server{{Name: "เซิร์ฟเวอร์", Episodes: []catalog.Episode{
			{Name: "ตอนที่ 1", Slug: "tap-1", LinkEmbed: "https://e.example/p?a=1&b=$2#x", LinkM3U8: "https://h.example/第1集.m3u8"}}}}), true},
		{"a quote in a name", written([]catalog.Server{{Name: `"A"`, Episodes: []catalog.Episode{{Name: "x"}}}}), false},
		{"a backslash in a link", written([]catalog.Server{{Name: "A", Episodes: []catalog.Episode{{LinkEmbed: `https://e.example/a\b`}}}}), false},
		{"a line break in a name", written([]catalog.Server{{Name: "A\nB", Episodes: []catalog.Episode{{Name: "x"}}}}), false},
		{"spaces between members", `[{"server_name": "Main", "server_data": [{"name": "Full", "slug": "full", "link_embed": "", "link_m3u8": "https://h.example/1.m3u8"}]}]`, false},
		{"members in another order", `[{"server_data":[{"slug":"full","name":"Full","link_embed":"","link_m3u8":""}],"server_name":"Main"}]`, false},
		{"a member left out", `[{"server_name":"Main","server_data":[{"name":"Full","slug":"full","link_m3u8":"https://h.example/1.m3u8"}]}]`, false},
		{"text after the array", `[]x`, false},
		{"empty", ``, false},
		{"invalid UTF-8", "[{\"server_name\":\"\xff\",\"server_data\":[]}]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := catalog.ParseStoredEpisodes(tc.text)
			if ok != tc.fast {
				t.Fatalf("read by the stored-form reader: %v, want %v", ok, tc.fast)
			}
			if !ok {
				return
			}
			want, err := catalog.ParseEpisodes([]byte(tc.text))
			if err != nil {
				t.Fatalf("ParseEpisodes rejects a text the stored-form reader took: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("stored-form reader gives\n%#v\nParseEpisodes gives\n%#v", got, want)
			}
		})
	}
}

// FuzzParseStoredEpisodes: whatever the stored-form reader takes, the
// general decoder takes too, with the same servers.
func FuzzParseStoredEpisodes(f *testing.F) {
	for _, s := range []string{`[]`, `[{"server_name":"Main","server_data":[]}]`,
		`[{"server_name":"Main","server_data":[{"name":"Full","slug":"full","link_embed":"https://e.example/1","link_m3u8":""}]}]`,
		`[{"server_name":"A","server_data":[{"name":"1","slug":"1","link_embed":"","link_m3u8":""},{"name":"2","slug":"2","link_embed":"","link_m3u8":""}]},{"server_name":"B","server_data":[]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := catalog.ParseStoredEpisodes(text)
		if !ok {
			return
		}
		want, err := catalog.ParseEpisodes([]byte(text))
		if err != nil {
			t.Fatalf("ParseEpisodes rejects %q, which the stored-form reader took: %v", text, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: stored-form reader gives %#v, ParseEpisodes %#v", text, got, want)
		}
	})
}
