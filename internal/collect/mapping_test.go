package collect

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
)

// The fixtures are MacCMS answers unlike this service's own: string and
// number ids mixed, several $$$ groups with # episodes whose names hold
// spaces, vod_pubdate as 2023/11/05 and as a bare year, vod_class split
// on '/', HTML and entities in vod_content, mac:// and // posters, and
// the XML <dd flag> form.

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lists(categories, actor, director, studio, genre, country []string) [catalog.NumLists]catalog.List {
	return [catalog.NumLists]catalog.List{catalog.NewList(categories), catalog.NewList(actor), catalog.NewList(director),
		catalog.NewList(studio), catalog.NewList(genre), catalog.NewList(country)}
}

func ep(name, slug, embed, m3u8 string) catalog.Episode {
	return catalog.Episode{Name: name, Slug: slug, LinkEmbed: embed, LinkM3U8: m3u8}
}

func TestMapJSONFixture(t *testing.T) {
	page, err := decodeJSON(readFixture(t, "maccms_detail.json"))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if page.Page != 1 || page.PageCount != 1 || page.Total != 3 || len(page.Records) != 3 {
		t.Fatalf("page: got %d/%d total %d with %d records, want 1/1 total 3 with 3", page.Page, page.PageCount, page.Total, len(page.Records))
	}
	want := []catalog.CollectedMovie{
		{VodID: 1021, Movie: catalog.Movie{
			Name: "The Long Night", Slug: "the-long-night", Year: "2023", IDCode: "TLN-01", Release: "2023-11-05",
			Poster1URL: "https://img.example.com/slide/tln.jpg", Poster2URL: "https://img.example.com/upload/vod/tln.jpg",
			Lists: lists([]string{"Action"}, []string{"Ann Lee", "Bo Chen"}, []string{"Kim Park"}, nil,
				[]string{"Action", "Thriller", "Drama"}, []string{"Korea"}),
			Synopsis: "A long night in Seoul.\nPart two & more.\nLast line.",
			Episodes: []catalog.Server{
				{Name: "line one", Episodes: []catalog.Episode{
					ep("Episode 1", "episode-1", "https://play.example.com/share/aaa", ""),
					ep("Episode 2", "episode-2", "https://play.example.com/share/bbb", ""),
					ep("Episode 3", "episode-3", "https://play.example.com/share/ccc", "")}},
				{Name: "hls", Episodes: []catalog.Episode{
					ep("Episode 1", "episode-1", "", "https://cdn.example.com/tln/1/index.m3u8"),
					ep("Episode 2", "episode-2", "", "https://cdn.example.com/tln/2/index.m3u8")}},
			}}},
		{VodID: 1022, Movie: catalog.Movie{
			Name: "Quiet Harbour", Slug: "quiet-harbour", Year: "2021", Poster2URL: "https://img.example.com/qh.jpg",
			Lists:    lists([]string{"Comedy"}, nil, nil, nil, []string{"Comedy"}, nil),
			Synopsis: "Plain text, no tags.",
			Episodes: []catalog.Server{{Name: "m3u8", Episodes: []catalog.Episode{
				ep("HD 1080p", "hd-1080p", "", "https://cdn.example.com/qh/index.m3u8")}}}}},
	}
	for i, w := range want {
		got, fe := toMovie(&page.Records[i])
		if len(fe) > 0 {
			t.Fatalf("record %d rejected: %s", i, fe.Describe(": "))
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	// The third has no name: rejected as an import rejects it, and its
	// impossible pubdate (2020-02-30) is no reason.
	_, fe := toMovie(&page.Records[2])
	if got := fe.Describe(": "); got != "name: is required" {
		t.Errorf("nameless record: got %q, want %q", got, "name: is required")
	}
}

func TestMapXMLFixture(t *testing.T) {
	page, err := decodeXML(readFixture(t, "maccms_detail.xml"))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if page.Page != 1 || page.PageCount != 1 || page.Total != 2 || len(page.Records) != 2 {
		t.Fatalf("page: got %d/%d total %d with %d records, want 1/1 total 2 with 2", page.Page, page.PageCount, page.Total, len(page.Records))
	}
	got, fe := toMovie(&page.Records[0])
	if len(fe) > 0 {
		t.Fatalf("rejected: %s", fe.Describe(": "))
	}
	want := catalog.CollectedMovie{VodID: 501, Movie: catalog.Movie{
		Name: "Night Train to Busan", Slug: "night-train-to-busan", Year: "2016", IDCode: "NTB-9",
		Poster2URL: "https://img.example.com/ntb.jpg",
		Lists: lists([]string{"Drama"}, []string{"Gong Yoo", "Ma Dong-seok"}, []string{"Yeon Sang-ho"}, nil, nil,
			[]string{"Korea"}),
		Synopsis: "Zombies & a train.",
		Episodes: []catalog.Server{
			{Name: "dplayer", Episodes: []catalog.Episode{
				ep("Part 1", "part-1", "https://play.example.com/ntb/1", ""),
				ep("Part 2", "part-2", "https://play.example.com/ntb/2", "")}},
			{Name: "hls", Episodes: []catalog.Episode{
				ep("Part 1", "part-1", "", "https://cdn.example.com/ntb/1.m3u8"),
				ep("Part 2", "part-2", "", "https://cdn.example.com/ntb/2.m3u8")}},
		}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

func TestReleaseDate(t *testing.T) {
	for in, want := range map[string]string{
		"2019-05-01": "2019-05-01", "2019-5-1": "2019-05-01", "2019/05/01": "2019-05-01",
		"2019.05.01": "2019-05-01", "20190501": "2019-05-01", "2019-05-01 20:00:00": "2019-05-01",
		"2019": "", "2019-02-30": "", "未知": "", "": "", "May 2019": "",
	} {
		if got := releaseDate(in); got != want {
			t.Errorf("releaseDate(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"a < b and c > d":          "a < b and c > d", // no tag: kept
		"<div>x</div><div>y</div>": "x\ny",
		"one<br>two<BR />three":    "one\ntwo\nthree",
		"Tom &amp; Jerry&#39;s":    "Tom & Jerry's",
		"x &lt; y":                 "x < y",
		// Markup written as entities, or split so that stripping one
		// tag makes another, is removed as markup.
		"&lt;img src=x onerror=alert(1)&gt;Hi":                  "Hi",
		"&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;": "alert(1)",
		"<<b>img src=x onerror=alert(1)>Hi":                     "Hi",
		"a&lt;br&gt;b":                                          "a\nb",
		// Nested up to the bound: decoded and removed.
		"&" + strings.Repeat("amp;", 6) + "lt;img src=x&" + strings.Repeat("amp;", 6) + "gt;Hi": "Hi",
		// Nested past it: no '<', '>' or '&' survives to be decoded later.
		"&" + strings.Repeat("amp;", 9) + "lt;img src=x&" + strings.Repeat("amp;", 9) + "gt;Hi": "amp;lt;img src=xamp;gt;Hi",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestPlayGroups(t *testing.T) {
	// Pieces that are no http(s) address (a site parser's ids) are left
	// out, and so is a group left empty; a code seen twice is numbered;
	// a bare URL is an episode named by its place; $ and # come back.
	got := servers("youku$$$m3u8$$$m3u8", "Ep1$XMzY4NjA1#Ep2$XMzY4NjA2$$$a%24b$https://cdn.example.com/x.m3u8?t=1#https://cdn.example.com/y/index.m3u8$$$Full$https://e.example.com/x%24y%23z")
	want := []catalog.Server{
		{Name: "m3u8", Episodes: []catalog.Episode{{Name: "a$b", LinkM3U8: "https://cdn.example.com/x.m3u8?t=1"}, {Name: "Ep 2", LinkM3U8: "https://cdn.example.com/y/index.m3u8"}}},
		{Name: "m3u8 (2)", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://e.example.com/x%24y%23z"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

func TestNamesXML(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://s.example/api.php/provide/vod/at/xml":            true,
		"https://s.example/api.php/provide/vod/at/xml/":           true,
		"https://s.example/api.php/provide/vod/?at=xml":           true,
		"https://s.example/api.php/provide/vod/from/m3u8/at/xml/": true,
		"https://s.example/api.php/provide/vod/":                  false,
		"https://s.example/api.php/provide/vod/at/json":           false,
	} {
		c, err := newClient(raw, Limits{}, fetchguard.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.xml != want {
			t.Errorf("%s: xml %v, want %v", raw, c.xml, want)
		}
	}
}

// The limits of contract 10, pinned by value.
func TestDefaultLimits(t *testing.T) {
	l := Limits{}.withDefaults()
	if l.ConnectTimeout.String() != "10s" || l.PageTimeout.String() != "1m0s" || l.MaxPageBytes != 16*1024*1024 || l.MaxPages != 10000 {
		t.Errorf("defaults: got %+v, want 10s, 1m0s, 16 MiB, 10000 pages", l)
	}
}
