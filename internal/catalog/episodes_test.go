package catalog_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func episodesMovie(servers ...catalog.Server) catalog.Movie {
	return catalog.Movie{Name: "Series", Episodes: servers}
}

func eps(n int, prefix string) []catalog.Episode {
	out := make([]catalog.Episode, n)
	for i := range out {
		out[i] = catalog.Episode{Name: "Ep " + strconv.Itoa(i+1), LinkM3U8: "https://cdn.example/" + prefix + "/" + strconv.Itoa(i+1) + ".m3u8"}
	}
	return out
}

func fieldErrors(t *testing.T, err error) catalog.FieldErrors {
	t.Helper()
	if err == nil {
		return nil
	}
	var e *catalog.Error
	if !errors.As(err, &e) || e.Fields == nil {
		t.Fatalf("got %v, want field errors", err)
	}
	return e.Fields
}

// The limits and field errors of contract 9, each at the boundary.
func TestEpisodesNormalizeLimits(t *testing.T) {
	many := func(n int) []catalog.Server {
		s := make([]catalog.Server, n)
		for i := range s {
			s[i] = catalog.Server{Name: "S" + strconv.Itoa(i), Episodes: eps(1, "s"+strconv.Itoa(i))}
		}
		return s
	}
	one := func(mut func(e *catalog.Episode)) []catalog.Server {
		e := catalog.Episode{Name: "Ep 1", LinkEmbed: "https://p.example/e/1"}
		mut(&e)
		return []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{e}}}
	}
	tests := []struct {
		name    string
		servers []catalog.Server
		key     string // the field error expected, "" for none
	}{
		{"20 servers", many(20), ""},
		{"21 servers", many(21), "episodes"},
		{"5000 episodes", []catalog.Server{{Name: "Main", Episodes: eps(5000, "m")}}, ""},
		{"5001 episodes", []catalog.Server{{Name: "Main", Episodes: eps(5001, "m")}}, "episodes[0].server_data"},
		{"server without episodes", []catalog.Server{{Name: "Main"}}, "episodes[0].server_data"},
		{"server name missing", []catalog.Server{{Name: " ", Episodes: eps(1, "a")}}, "episodes[0].server_name"},
		{"server name 64", []catalog.Server{{Name: strings.Repeat("ก", 64), Episodes: eps(1, "a")}}, ""},
		{"server name 65", []catalog.Server{{Name: strings.Repeat("ก", 65), Episodes: eps(1, "a")}}, "episodes[0].server_name"},
		{"server names repeat", []catalog.Server{{Name: "Main", Episodes: eps(1, "a")}, {Name: "Main", Episodes: eps(1, "b")}}, "episodes[1].server_name"},
		{"episode name missing", one(func(e *catalog.Episode) { e.Name = "" }), "episodes[0].server_data[0].name"},
		{"episode name 64", one(func(e *catalog.Episode) { e.Name = strings.Repeat("é", 64) }), ""},
		{"episode name 65", one(func(e *catalog.Episode) { e.Name = strings.Repeat("é", 65) }), "episodes[0].server_data[0].name"},
		{"no link", one(func(e *catalog.Episode) { e.LinkEmbed = "" }), "episodes[0].server_data[0]"},
		{"m3u8 only", one(func(e *catalog.Episode) { e.LinkEmbed, e.LinkM3U8 = "", "http://cdn.example/a.m3u8" }), ""},
		{"embed not http", one(func(e *catalog.Episode) { e.LinkEmbed = "javascript:alert(1)" }), "episodes[0].server_data[0].link_embed"},
		{"m3u8 not http", one(func(e *catalog.Episode) { e.LinkM3U8 = "ftp://cdn.example/a.m3u8" }), "episodes[0].server_data[0].link_m3u8"},
		{"slugs repeat", []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{
			{Name: "Ep 1", LinkEmbed: "https://p.example/1"}, {Name: "EP-1", LinkEmbed: "https://p.example/2"}}}},
			"episodes[0].server_data[1].slug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := episodesMovie(tt.servers...)
			fe := fieldErrors(t, m.Normalize())
			if tt.key == "" {
				if fe != nil {
					t.Fatalf("got errors %v, want none", fe)
				}
				return
			}
			if _, ok := fe[tt.key]; !ok || len(fe) != 1 {
				t.Fatalf("got errors %v, want one on %s", fe, tt.key)
			}
		})
	}
}

// The whole movie's episodes are bounded in bytes, so a page of movies
// is bounded too: 2 MiB of served JSON.
func TestEpisodesNormalizeTotalSize(t *testing.T) {
	long := func(n, urlLen int) []catalog.Server {
		var servers []catalog.Server
		for s := 0; n > 0; s++ {
			k := min(n, 5000)
			e := make([]catalog.Episode, k)
			for i := range e {
				u := "https://cdn.example/" + strconv.Itoa(s) + "/" + strconv.Itoa(i) + "/"
				e[i] = catalog.Episode{Name: "E" + strconv.Itoa(i), LinkM3U8: u + strings.Repeat("x", urlLen-len(u))}
			}
			servers = append(servers, catalog.Server{Name: "S" + strconv.Itoa(s), Episodes: e})
			n -= k
		}
		return servers
	}
	fits := episodesMovie(long(2000, 900)...)
	if err := fits.Normalize(); err != nil {
		t.Fatalf("2,000 episodes of 900-byte links: %v", err)
	}
	if n := len(catalog.EpisodesJSON(fits.Episodes)); n > 2<<20 {
		t.Fatalf("test premise: %d bytes", n)
	}
	big := episodesMovie(long(3000, 900)...)
	fe := fieldErrors(t, big.Normalize())
	if !strings.Contains(fe["episodes"], "at most 2097152 bytes") {
		t.Fatalf("3,000 episodes of 900-byte links: got %v, want the 2097152-byte limit on episodes", fe)
	}
}

func TestEpisodesNormalizeCleans(t *testing.T) {
	m := episodesMovie(catalog.Server{Name: "  Thai ", Episodes: []catalog.Episode{
		{Name: " ตอนที่ 1 ", LinkEmbed: " https://p.example/e/1 "},
		{Name: "Straße Ep 2", Slug: "own-slug", LinkM3U8: "https://cdn.example/2.m3u8"},
	}})
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	want := []catalog.Server{{Name: "Thai", Episodes: []catalog.Episode{
		{Name: "ตอนที่ 1", Slug: "ตอนที่-1", LinkEmbed: "https://p.example/e/1"},
		{Name: "Straße Ep 2", Slug: "own-slug", LinkM3U8: "https://cdn.example/2.m3u8"},
	}}}
	if !reflect.DeepEqual(m.Episodes, want) {
		t.Fatalf("got %+v, want %+v", m.Episodes, want)
	}
	empty := catalog.Movie{Name: "Film", Episodes: []catalog.Server{}}
	if err := empty.Normalize(); err != nil || empty.Episodes != nil {
		t.Fatalf("an empty list: %v, %#v; want nil", err, empty.Episodes)
	}
}

// The served form has the keys of contract 9, parses back to the same
// value, and is [] for none.
func TestEpisodesJSON(t *testing.T) {
	if got := catalog.EpisodesJSON(nil); got != "[]" {
		t.Fatalf("no episodes: %s, want []", got)
	}
	servers := []catalog.Server{{Name: `Main "1"`, Episodes: []catalog.Episode{
		{Name: "Ep 1", Slug: "ep-1", LinkEmbed: "https://player.example/e/1", LinkM3U8: "https://cdn.example/1/index.m3u8"},
		{Name: "Ep 2", Slug: "ep-2", LinkM3U8: "https://cdn.example/2/index.m3u8"}}}}
	got := catalog.EpisodesJSON(servers)
	want := `[{"server_name":"Main \"1\"","server_data":[` +
		`{"name":"Ep 1","slug":"ep-1","link_embed":"https://player.example/e/1","link_m3u8":"https://cdn.example/1/index.m3u8"},` +
		`{"name":"Ep 2","slug":"ep-2","link_embed":"","link_m3u8":"https://cdn.example/2/index.m3u8"}]}]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var generic any
	if err := json.Unmarshal([]byte(got), &generic); err != nil {
		t.Fatal(err)
	}
	back, err := catalog.ParseEpisodes([]byte(got))
	if err != nil || !reflect.DeepEqual(back, servers) {
		t.Fatalf("parsed back: %+v, %v", back, err)
	}
}

func TestParseEpisodesRejects(t *testing.T) {
	for _, in := range []string{
		`{"server_name":"Main"}`,
		`[{"server_name":"Main","server_data":[{"name":"a","link_embed":"https://p.example/1","extra":1}]}]`,
		`[{"server_name":1}]`,
		`[{"server_name":"Main","server_data":"x"}]`,
		`[`,
	} {
		if got, err := catalog.ParseEpisodes([]byte(in)); err == nil || catalog.ErrorCode(err) != catalog.EINVALID {
			t.Errorf("ParseEpisodes(%s) = %+v, %v; want an EINVALID error", in, got, err)
		}
	}
	for _, in := range []string{"", "null", "[]", " [] "} {
		if got, err := catalog.ParseEpisodes([]byte(in)); err != nil || got != nil {
			t.Errorf("ParseEpisodes(%q) = %+v, %v; want nil, nil", in, got, err)
		}
	}
}

func TestShorthandAndFirstEmbed(t *testing.T) {
	if got := catalog.ShorthandEpisodes("", " "); got != nil {
		t.Fatalf("no links: %+v, want nil", got)
	}
	got := catalog.ShorthandEpisodes("https://p.example/e/1", "https://cdn.example/1.m3u8")
	want := []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://p.example/e/1", LinkM3U8: "https://cdn.example/1.m3u8"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	servers := []catalog.Server{
		{Name: "A", Episodes: []catalog.Episode{{Name: "1", LinkM3U8: "https://cdn.example/1.m3u8"}, {Name: "2", LinkEmbed: "https://p.example/2"}}},
		{Name: "B", Episodes: []catalog.Episode{{Name: "1", LinkEmbed: "https://q.example/1"}}},
	}
	if got := catalog.FirstEmbed(servers); got != "https://p.example/2" {
		t.Fatalf("FirstEmbed = %q, want the first embed link of the first server", got)
	}
	if got := catalog.FirstEmbed([]catalog.Server{{Name: "A", Episodes: eps(2, "x")}, servers[1]}); got != "" {
		t.Fatalf("FirstEmbed = %q, want \"\" when the first server has no embed link", got)
	}
}

// macCMSPlayList parses vod_play_from and vod_play_url as MacCMS and the
// field's players do: groups split on "$$$", episodes on "#", the name
// from the address on "$".
func macCMSPlayList(from, playURL string) map[string][][2]string {
	out := map[string][][2]string{}
	if from == "" {
		return out
	}
	froms := strings.Split(from, "$$$")
	urls := strings.Split(playURL, "$$$")
	for i, code := range froms {
		var list [][2]string
		for _, ep := range strings.Split(urls[i], "#") {
			name, link, _ := strings.Cut(ep, "$")
			list = append(list, [2]string{name, link})
		}
		out[code+"/"+strconv.Itoa(i)] = list
	}
	return out
}

func TestPlayGroupsParseAsMacCMS(t *testing.T) {
	servers := []catalog.Server{
		{Name: "Main", Episodes: []catalog.Episode{
			{Name: "Ep 1", LinkEmbed: "https://p.example/e/1?a=$$$b", LinkM3U8: "https://cdn.example/1.m3u8"},
			{Name: "Ep #2 $", LinkEmbed: "https://p.example/e/2#t=1"},
		}},
		{Name: "Back$$$up #2", Episodes: []catalog.Episode{{Name: "ตอน 1", LinkM3U8: "https://cdn2.example/1.m3u8"}}},
	}
	// Each server's m3u8 group comes first, then its iframe group; the
	// note names the group's server, with $ and # percent-encoded so
	// that it splits as the other fields do.
	play := catalog.JoinPlayGroups(catalog.PlayGroups(servers, ""))
	if play.From != "m3u8$$$iframe$$$m3u8" || play.Server != "no$$$no$$$no" || play.Note != "Main$$$Main$$$Back%24%24%24up %232" {
		t.Fatalf("from %q server %q note %q", play.From, play.Server, play.Note)
	}
	got := macCMSPlayList(play.From, play.URL)
	want := map[string][][2]string{
		"m3u8/0":   {{"Ep 1", "https://cdn.example/1.m3u8"}},
		"iframe/1": {{"Ep 1", "https://p.example/e/1?a=%24%24%24b"}, {"Ep %232 %24", "https://p.example/e/2%23t=1"}},
		"m3u8/2":   {{"ตอน 1", "https://cdn2.example/1.m3u8"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parsed as MacCMS:\n got %v\nwant %v", got, want)
	}
	if notes := strings.Split(play.Note, "$$$"); catalog.UnescapePlayPiece(notes[2]) != servers[1].Name {
		t.Errorf("note %q does not come back as %q", notes[2], servers[1].Name)
	}
	if got := catalog.ListPlayFrom(catalog.PlayGroups(servers, "")); got != "m3u8,iframe,m3u8" {
		t.Errorf("list-mode vod_play_from: got %q, want %q", got, "m3u8,iframe,m3u8")
	}
	only := catalog.JoinPlayGroups(catalog.PlayGroups(servers, "m3u8"))
	if only.From != "m3u8$$$m3u8" || only.Note != "Main$$$Back%24%24%24up %232" || len(macCMSPlayList(only.From, only.URL)) != 2 {
		t.Fatalf("only m3u8: %+v", only)
	}
	if none := catalog.JoinPlayGroups(catalog.PlayGroups(nil, "")); none != (catalog.VodPlay{}) {
		t.Fatalf("no episodes: %+v, want every field empty", none)
	}
}

func TestVodRemarksAndSerial(t *testing.T) {
	tests := []struct {
		servers []catalog.Server
		remarks string
		serial  int
	}{
		{nil, "", 0},
		{[]catalog.Server{{Name: "A", Episodes: eps(1, "a")}}, "Full", 1},
		{[]catalog.Server{{Name: "A", Episodes: eps(3, "a")}, {Name: "B", Episodes: eps(24, "b")}}, "Ep 24", 24},
	}
	for _, tt := range tests {
		if got := catalog.VodRemarks(tt.servers); got != tt.remarks {
			t.Errorf("VodRemarks = %q, want %q", got, tt.remarks)
		}
		if got := catalog.VodSerial(tt.servers); got != tt.serial {
			t.Errorf("VodSerial = %d, want %d", got, tt.serial)
		}
	}
}
