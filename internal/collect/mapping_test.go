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
		{VodID: 1021, TypeID: 6, Movie: catalog.Movie{
			Name: "The Long Night", Slug: "the-long-night", Year: "2023", IDCode: "TLN-01", Release: "2023-11-05",
			Poster1URL: "https://img.example.com/slide/tln.jpg", Poster2URL: "https://img.example.com/upload/vod/tln.jpg",
			Lists: lists([]string{"Action"}, []string{"Ann Lee", "Bo Chen"}, []string{"Kim Park"}, nil,
				[]string{"Action", "Thriller", "Drama"}, []string{"Korea"}),
			Synopsis: "A long night in Seoul.\nPart two & more.\nLast line.", Score: "8.1", DoubanID: "35208767",
			Episodes: []catalog.Server{
				{Name: "line one", Episodes: []catalog.Episode{
					ep("Episode 1", "episode-1", "https://play.example.com/share/aaa", ""),
					ep("Episode 2", "episode-2", "https://play.example.com/share/bbb", ""),
					ep("Episode 3", "episode-3", "https://play.example.com/share/ccc", "")}},
				{Name: "hls", Episodes: []catalog.Episode{
					ep("Episode 1", "episode-1", "", "https://cdn.example.com/tln/1/index.m3u8"),
					ep("Episode 2", "episode-2", "", "https://cdn.example.com/tln/2/index.m3u8")}},
			}}},
		{VodID: 1022, TypeID: 7, Movie: catalog.Movie{
			Name: "Quiet Harbour", Slug: "quiet-harbour", Year: "2021", Poster2URL: "https://img.example.com/qh.jpg",
			Lists:    lists([]string{"Comedy"}, nil, nil, nil, []string{"Comedy"}, nil),
			Synopsis: "Plain text, no tags.", Score: "7.3",
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
	want := catalog.CollectedMovie{VodID: 501, TypeID: 1, Movie: catalog.Movie{
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

// The score is vod_score, or vod_douban_score when vod_score is unset
// (MacCMS's 0.0); what is not a score from 0 to 10 is no score, and
// never rejects the record. The Douban id is digits, 0 none.
func TestScoreAndDoubanID(t *testing.T) {
	for _, tt := range []struct{ vodScore, doubanScore, want string }{
		{"", "", ""},
		{"8.5", "", "8.5"},
		{"8.5", "7.0", "8.5"},
		{"0.0", "7.0", "7.0"},
		{"", "7", "7.0"},
		{"0.0", "0.0", "0.0"},
		{"0", "", "0.0"},
		{"8.55", "", "8.6"},
		{"10", "", "10.0"},
		{"11", "6.5", "6.5"},
		{"-1", "", ""},
		{"NaN", "", ""},
		{"Inf", "", ""},
		{"high", "9.1", "9.1"},
		{" 7.2 ", "", "7.2"},
	} {
		if got := score(tt.vodScore, tt.doubanScore); got != tt.want {
			t.Errorf("score(%q, %q) = %q, want %q", tt.vodScore, tt.doubanScore, got, tt.want)
		}
	}
	for in, want := range map[string]string{"": "", "0": "", "1292052": "1292052", "0042": "42", "tt0111161": "", "-3": "",
		"1.5": "", "12345678901234567890": ""} {
		if got := doubanID(in); got != want {
			t.Errorf("doubanID(%q) = %q, want %q", in, got, want)
		}
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
	got := servers("youku$$$m3u8$$$m3u8", "", "Ep1$XMzY4NjA1#Ep2$XMzY4NjA2$$$a%24b$https://cdn.example.com/x.m3u8?t=1#https://cdn.example.com/y/index.m3u8$$$Full$https://e.example.com/x%24y%23z")
	want := []catalog.Server{
		{Name: "m3u8", Episodes: []catalog.Episode{{Name: "a$b", LinkM3U8: "https://cdn.example.com/x.m3u8?t=1"}, {Name: "Ep 2", LinkM3U8: "https://cdn.example.com/y/index.m3u8"}}},
		{Name: "m3u8 (2)", Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: "https://e.example.com/x%24y%23z"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

// Servers come back from the notes (contract 10): adjacent groups with
// the same note are one server, episode by episode; a group without a
// note is a server named after its code.
func TestServersFromNotes(t *testing.T) {
	m3u8 := func(name, link string) catalog.Episode { return catalog.Episode{Name: name, LinkM3U8: link} }
	embed := func(name, link string) catalog.Episode { return catalog.Episode{Name: name, LinkEmbed: link} }
	both := func(name, e, m string) catalog.Episode { return catalog.Episode{Name: name, LinkEmbed: e, LinkM3U8: m} }
	long := strings.Repeat("n", catalog.MaxServerNameRunes+6)
	tests := []struct {
		name, from, note, urls string
		want                   []catalog.Server
	}{
		{"this service's groups", "m3u8$$$iframe$$$m3u8", "Main$$$Main$$$Back%24%24%24up %232",
			"Ep 1$https://c.example/1.m3u8#Ep 2$https://c.example/2.m3u8$$$Ep 1$https://p.example/1#Ep 3$https://p.example/3$$$Ep 1$https://b.example/1.m3u8",
			[]catalog.Server{
				{Name: "Main", Episodes: []catalog.Episode{both("Ep 1", "https://p.example/1", "https://c.example/1.m3u8"),
					m3u8("Ep 2", "https://c.example/2.m3u8"), embed("Ep 3", "https://p.example/3")}},
				{Name: "Back$$$up #2", Episodes: []catalog.Episode{m3u8("Ep 1", "https://b.example/1.m3u8")}}}},
		// An episode with only an embed link keeps its place before one
		// that has both.
		{"embed-only episode first", "m3u8$$$iframe", "S$$$S", "B$https://c.example/b.m3u8$$$A$https://p.example/a#B$https://p.example/b",
			[]catalog.Server{{Name: "S", Episodes: []catalog.Episode{embed("A", "https://p.example/a"), both("B", "https://p.example/b", "https://c.example/b.m3u8")}}}},
		// Episodes that one group lacks go in the order of the numbers
		// in their names, else after those of the earlier groups.
		{"gaps on both sides", "m3u8$$$iframe", "S$$$S",
			"Ep 1$https://c.example/1.m3u8#Ep 3$https://c.example/3.m3u8#Ep 4$https://c.example/4.m3u8#Trailer$https://c.example/t.m3u8$$$" +
				"Ep 2$https://p.example/2#Ep 4$https://p.example/4#Ep 5$https://p.example/5#Extra$https://p.example/x",
			[]catalog.Server{{Name: "S", Episodes: []catalog.Episode{m3u8("Ep 1", "https://c.example/1.m3u8"), embed("Ep 2", "https://p.example/2"),
				m3u8("Ep 3", "https://c.example/3.m3u8"), both("Ep 4", "https://p.example/4", "https://c.example/4.m3u8"),
				m3u8("Trailer", "https://c.example/t.m3u8"), embed("Ep 5", "https://p.example/5"), embed("Extra", "https://p.example/x")}}}},
		// Names that repeat within a group pair up in order.
		{"repeated names", "m3u8$$$iframe", "S$$$S", "X$https://c.example/1.m3u8#X$https://c.example/2.m3u8$$$X$https://p.example/1#X$https://p.example/2",
			[]catalog.Server{{Name: "S", Episodes: []catalog.Episode{both("X", "https://p.example/1", "https://c.example/1.m3u8"), both("X", "https://p.example/2", "https://c.example/2.m3u8")}}}},
		// The code says the kind of link, whatever the address ends in.
		{"kind from the code", "m3u8$$$iframe", "S$$$S", "Full$https://c.example/live?id=1$$$Full$https://p.example/x.m3u8",
			[]catalog.Server{{Name: "S", Episodes: []catalog.Episode{both("Full", "https://p.example/x.m3u8", "https://c.example/live?id=1")}}}},
		// Resource sites send no notes: one server per group, by code.
		{"no notes", "dplayer$$$ffm3u8$$$ffm3u8", "$$$$$$", "Ep 1$https://p.example/1$$$Ep 1$https://c.example/1.m3u8$$$Ep 1$https://d.example/1.m3u8",
			[]catalog.Server{{Name: "dplayer", Episodes: []catalog.Episode{embed("Ep 1", "https://p.example/1")}},
				{Name: "ffm3u8", Episodes: []catalog.Episode{m3u8("Ep 1", "https://c.example/1.m3u8")}},
				{Name: "ffm3u8 (2)", Episodes: []catalog.Episode{m3u8("Ep 1", "https://d.example/1.m3u8")}}}},
		// Two groups of one note with the same kind of link are two
		// servers; so are groups of a note that comes back later.
		{"same note, same kind", "youku$$$qq$$$m3u8$$$m3u8", "HD$$$HD$$$SD$$$HD", "Ep 1$https://y.example/1$$$Ep 1$https://q.example/1$$$Ep 1$https://c.example/1.m3u8$$$Ep 1$https://d.example/1.m3u8",
			[]catalog.Server{{Name: "HD", Episodes: []catalog.Episode{embed("Ep 1", "https://y.example/1")}},
				{Name: "HD (2)", Episodes: []catalog.Episode{embed("Ep 1", "https://q.example/1")}},
				{Name: "SD", Episodes: []catalog.Episode{m3u8("Ep 1", "https://c.example/1.m3u8")}},
				{Name: "HD (3)", Episodes: []catalog.Episode{m3u8("Ep 1", "https://d.example/1.m3u8")}}}},
		// A note is one line of at most 64 characters.
		{"long note", "m3u8$$$m3u8", long + "$$$" + long, "Ep 1$https://c.example/1.m3u8$$$Ep 1$https://d.example/1.m3u8",
			[]catalog.Server{{Name: long[:catalog.MaxServerNameRunes], Episodes: []catalog.Episode{m3u8("Ep 1", "https://c.example/1.m3u8")}},
				{Name: long[:catalog.MaxServerNameRunes-4] + " (2)", Episodes: []catalog.Episode{m3u8("Ep 1", "https://d.example/1.m3u8")}}}},
		{"note over lines", "iframe", " A\n  B ", "Ep 1$https://p.example/1",
			[]catalog.Server{{Name: "A B", Episodes: []catalog.Episode{embed("Ep 1", "https://p.example/1")}}}},
		{"spaces inside a note", "iframe", " A  B ", "Ep 1$https://p.example/1",
			[]catalog.Server{{Name: "A  B", Episodes: []catalog.Episode{embed("Ep 1", "https://p.example/1")}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := servers(tt.from, tt.note, tt.urls)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("\n got %+v\nwant %+v", got, tt.want)
			}
			// Repeated names make repeated slugs: MacCMS carries no slugs.
			m := catalog.Movie{Name: "x", Episodes: got}
			if err := m.Normalize(); err != nil && tt.name != "repeated names" {
				t.Errorf("servers do not validate: %v", err)
			}
		})
	}
}

// An empty portrait poster comes back empty: vod_pic that is vod_pic_slide
// is section 6's fallback, not a poster of its own (contract 10).
func TestPortraitPoster(t *testing.T) {
	for _, tt := range []struct{ pic, slide, poster1, poster2 string }{
		{"https://i.example/l.jpg", "https://i.example/l.jpg", "https://i.example/l.jpg", ""},
		{"https://i.example/p.jpg", "https://i.example/l.jpg", "https://i.example/l.jpg", "https://i.example/p.jpg"},
		{"https://i.example/p.jpg", "", "", "https://i.example/p.jpg"},
		{"mac://i.example/l.jpg", "https://i.example/l.jpg", "https://i.example/l.jpg", ""},
		{"", "", "", ""},
	} {
		got, fe := toMovie(&vod{ID: "1", Name: "x", Pic: text(tt.pic), PicSlide: text(tt.slide)})
		if len(fe) > 0 {
			t.Fatalf("rejected: %s", fe.Describe(": "))
		}
		if got.Movie.Poster1URL != tt.poster1 || got.Movie.Poster2URL != tt.poster2 {
			t.Errorf("vod_pic %q, vod_pic_slide %q: got posters %q and %q, want %q and %q",
				tt.pic, tt.slide, got.Movie.Poster1URL, got.Movie.Poster2URL, tt.poster1, tt.poster2)
		}
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
		c, err := newClient(raw, Limits{}, fetchguard.Options{}, "")
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
