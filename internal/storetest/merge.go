package storetest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runMerge checks how records of several sources merge into one movie
// (contract 10, issue 40): by TitleKey under each source's match
// fields, by a shared Douban id, filling empty fields, and the
// preferred source's fields winning. Each case reads the store through
// the lookups of catalog.CollectReader: by title key, by Douban id, by
// a movie's links and by the source's settings.
func runMerge(t *testing.T, open func(t *testing.T) catalog.Store) {
	t.Run("MergeSettingsStored", func(t *testing.T) { runMergeSettings(t, open(t)) })
	t.Run("MergeByTitleKey", func(t *testing.T) { runMergeTitleKey(t, open(t)) })
	t.Run("MergeByDoubanID", func(t *testing.T) { runMergeDouban(t, open(t)) })
	t.Run("MergeMatchFields", func(t *testing.T) { runMergeMatchFields(t, open(t)) })
	t.Run("MergeFillsEmptyFields", func(t *testing.T) { runMergeFill(t, open(t)) })
	t.Run("MergeThreeSources", func(t *testing.T) { runMergeThree(t, open(t)) })
}

// addSource stores a source with these settings.
func addSource(t *testing.T, s catalog.Store, name string, set catalog.SourceSettings) {
	t.Helper()
	src := catalog.Source{Name: name, URL: "https://" + name + ".example/api.php/provide/vod/"}
	noErr(t, s.AddSource(context.Background(), &src), "AddSource "+name)
	noErr(t, s.SetSourceSettings(context.Background(), name, set), "SetSourceSettings "+name)
}

func runMergeSettings(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	src := catalog.Source{Name: "alpha", URL: "https://a.example/vod"}
	noErr(t, s.AddSource(ctx, &src), "AddSource")
	got, err := s.SourceByName(ctx, "alpha")
	noErr(t, err, "SourceByName")
	if got.SourceSettings != catalog.DefaultSourceSettings {
		t.Errorf("a new source's settings: got %+v, want %+v", got.SourceSettings, catalog.DefaultSourceSettings)
	}
	set := catalog.SourceSettings{Match: catalog.MatchName | catalog.MatchActor, Preferred: true, Interval: 2500 * time.Millisecond}
	noErr(t, s.SetSourceSettings(ctx, "alpha", set), "SetSourceSettings")
	if got, _ := s.SourceByName(ctx, "alpha"); got.SourceSettings != set {
		t.Errorf("settings after SetSourceSettings: got %+v, want %+v", got.SourceSettings, set)
	}
	if list, _ := s.ListSources(ctx); len(list) != 1 || list[0].SourceSettings != set {
		t.Errorf("ListSources: got %+v, want alpha with %+v", list, set)
	}
	wantCode(t, s.SetSourceSettings(ctx, "nobody", set), catalog.ENOTFOUND)
}

// runMergeTitleKey: titles that fold to one key (case, width, spaces,
// punctuation, traditional and simplified Chinese) join; 叁 is not a
// variant of 三 in OpenCC's table, so 星期叁 is another title, and a
// word less is another title too.
func runMergeTitleKey(t *testing.T, s catalog.Store) {
	first := collectPage(t, s, "alpha",
		collectedMovie(t, 1, "星期三", "2022", "alpha"),
		collectedMovie(t, 2, "The Night-Watch", "2020", "alpha"),
		collectedMovie(t, 3, "愛情公寓", "2009", "alpha"))
	wed, night, flat := first[0].Movie.ID, first[1].Movie.ID, first[2].Movie.ID
	for i, tc := range []struct {
		name, year string
		want       int64 // the movie joined; 0: a movie of its own
	}{
		{"星期 三！", "2022", wed},             // a space inside, full-width punctuation
		{"THE NIGHT WATCH", "2020", night}, // case, a space for the hyphen
		{"ｔｈｅ　ｎｉｇｈｔ：ｗａｔｃｈ", "2020", night}, // full-width forms
		{"爱情公寓", "2009", flat},             // simplified for traditional
		{"星期叁", "2022", 0},                 // 叁 does not fold to 三
		{"Night Watch", "2020", 0},         // a word less
		{"星期三", "2023", 0},                 // another year (name and year by default)
	} {
		// A source of its own each: a source joins a movie once.
		got := collectPage(t, s, "s"+strconv.Itoa(i), collectedMovie(t, 1, tc.name, tc.year, ""))[0].Movie.ID
		if tc.want != 0 && got != tc.want {
			t.Errorf("%q (%s): wrote movie %d, want it joined to %d", tc.name, tc.year, got, tc.want)
		}
		if tc.want == 0 && (got == wed || got == night || got == flat) {
			t.Errorf("%q (%s): joined movie %d, want a movie of its own", tc.name, tc.year, got)
		}
	}
}

// runMergeDouban: a shared Douban id joins whatever the names; two
// different Douban ids keep the same name and year apart; a source
// matching by douban_id joins only by it.
func runMergeDouban(t *testing.T, s catalog.Store) {
	rec := func(vodID int64, name, year, douban string) catalog.CollectedMovie {
		cm := collectedMovie(t, vodID, name, year, "")
		cm.Movie.DoubanID = douban
		return cm
	}
	first := collectPage(t, s, "alpha", rec(1, "Wednesday", "2022", "35010610"), rec(2, "Harbour", "2020", "1001"))
	addSource(t, s, "strict", catalog.SourceSettings{Match: catalog.MatchDoubanID})
	for _, tc := range []struct {
		source string
		rec    catalog.CollectedMovie
		want   int64
	}{
		{"beta", rec(1, "星期三", "2021", "35010610"), first[0].Movie.ID}, // another name and year, one Douban id
		{"beta", rec(2, "Harbour", "2020", "1002"), 0},                 // same name and year, another Douban id
		{"gamma", rec(1, "Harbour", "2020", ""), first[1].Movie.ID},    // no Douban id: by name and year
		{"strict", rec(1, "Harbour", "2020", ""), 0},                   // douban_id only: the name is not enough
		{"strict", rec(2, "Other", "1999", "1001"), first[1].Movie.ID},
	} {
		got := collectPage(t, s, tc.source, tc.rec)[0].Movie.ID
		if tc.want != 0 && got != tc.want || tc.want == 0 && (got == first[0].Movie.ID || got == first[1].Movie.ID) {
			t.Errorf("%s's %q (douban %q): wrote movie %d, want %d (0: its own)", tc.source, tc.rec.Movie.Name, tc.rec.Movie.DoubanID, got, tc.want)
		}
	}
}

// runMergeMatchFields: each source's match fields decide; category and
// actor are met by any one shared item.
func runMergeMatchFields(t *testing.T, s catalog.Store) {
	rec := func(vodID int64, year string, categories, actors []string) catalog.CollectedMovie {
		cm := collectedMovie(t, vodID, "Tidewater", year, "")
		cm.Movie.Lists[0], cm.Movie.Lists[1] = catalog.NewList(categories), catalog.NewList(actors)
		noErr(t, cm.Movie.Normalize(), "Normalize")
		return cm
	}
	id := collectPage(t, s, "alpha", rec(1, "2018", []string{"Drama", "Crime"}, []string{"Ann Lee", "Bo Chen"}))[0].Movie.ID
	name, year := catalog.MatchName, catalog.MatchYear
	for i, tc := range []struct {
		match catalog.Match
		rec   catalog.CollectedMovie
		joins bool
	}{
		{catalog.DefaultMatch, rec(1, "2019", nil, nil), false},                                      // name and year
		{name, rec(1, "2019", nil, nil), true},                                                       // name only
		{name | catalog.MatchCategory, rec(1, "2018", []string{"crime"}, nil), true},                 // one category shared (folded)
		{name | catalog.MatchCategory, rec(1, "2018", []string{"Comedy"}, nil), false},               // none shared
		{name | year | catalog.MatchActor, rec(1, "2018", nil, []string{"Bo Chen", "Cy Dee"}), true}, // one actor shared
		{name | year | catalog.MatchActor, rec(1, "2019", nil, []string{"Ann Lee"}), false},          // the year differs
		{name | year | catalog.MatchActor, rec(1, "2018", []string{"Drama"}, []string{"Cy Dee"}), false},
	} {
		// A source of its own each: a source joins a movie once.
		source := "m" + strconv.Itoa(i)
		addSource(t, s, source, catalog.SourceSettings{Match: tc.match})
		got := collectPage(t, s, source, tc.rec)[0].Movie.ID
		if (got == id) != tc.joins {
			t.Errorf("match %s, record %+v: joined %v, want %v", tc.match, tc.rec.Movie.Lists[:2], got == id, tc.joins)
		}
	}
}

// runMergeFill: a joined record fills the fields the movie leaves
// empty and overwrites none, unless its source is preferred; the keys
// stay the movie's. The movie's own source never empties a field
// another filled.
func runMergeFill(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	imported := []catalog.Movie{{Name: "Sea Fog", Year: "2014", Synopsis: "set by hand", IDCode: "SF-1"}}
	noErr(t, imported[0].Normalize(), "Normalize")
	noErr(t, s.UpsertMovies(ctx, imported), "UpsertMovies")
	id := imported[0].ID
	rec := func(vodID int64, synopsis, poster, score string) catalog.CollectedMovie {
		cm := collectedMovie(t, vodID, "Sea Fog", "2014", synopsis)
		cm.Movie.Poster1URL, cm.Movie.Score, cm.Movie.IDCode = poster, score, "OTHER-1"
		noErr(t, cm.Movie.Normalize(), "Normalize")
		return cm
	}
	collectPage(t, s, "beta", rec(1, "beta's text", "https://b.example/p.jpg", ""))
	m := getMovie(t, s, id)
	if m.Synopsis != "set by hand" || m.Poster1URL != "https://b.example/p.jpg" || m.IDCode != "SF-1" || m.Name != "Sea Fog" {
		t.Errorf("after beta: synopsis %q, poster %q, id_code %q; want the hand's synopsis, beta's poster, the import's id_code", m.Synopsis, m.Poster1URL, m.IDCode)
	}
	collectPage(t, s, "gamma", rec(1, "gamma's text", "https://g.example/p.jpg", "7.5"))
	m = getMovie(t, s, id)
	if m.Synopsis != "set by hand" || m.Poster1URL != "https://b.example/p.jpg" || m.Score != "7.5" {
		t.Errorf("after gamma: synopsis %q, poster %q, score %q; want the earlier ones kept and gamma's score", m.Synopsis, m.Poster1URL, m.Score)
	}
	addSource(t, s, "prime", catalog.SourceSettings{Match: catalog.DefaultMatch, Preferred: true})
	collectPage(t, s, "prime", rec(1, "prime's text", "", "8.1"))
	m = getMovie(t, s, id)
	if m.Synopsis != "prime's text" || m.Poster1URL != "https://b.example/p.jpg" || m.Score != "8.1" || m.IDCode != "SF-1" {
		t.Errorf("after the preferred prime: synopsis %q, poster %q, score %q, id_code %q; want prime's text and score, the poster kept (prime has none), the import's id_code",
			m.Synopsis, m.Poster1URL, m.Score, m.IDCode)
	}

	// A source's own movie: a field its record leaves empty keeps what
	// a joined source filled.
	own := collectPage(t, s, "alpha", collectedMovie(t, 1, "Orchard", "2022", ""))[0].Movie.ID
	joiner := collectedMovie(t, 1, "Orchard", "2022", "delta's text")
	collectPage(t, s, "delta", joiner)
	collectPage(t, s, "alpha", collectedMovie(t, 1, "Orchard (restored)", "2022", ""))
	if m := getMovie(t, s, own); m.Synopsis != "delta's text" || m.Name != "Orchard (restored)" {
		t.Errorf("alpha's update: name %q, synopsis %q; want alpha's name and delta's synopsis kept", m.Name, m.Synopsis)
	}
}

// runMergeThree: one title seen from three sources with three spellings
// is one movie with the servers of all three.
func runMergeThree(t *testing.T, s catalog.Store) {
	first := collectPage(t, s, "alpha", collectedMovie(t, 101, "愛情公寓 3", "2012", "alpha", playServer("m3u8", "https://a.example/3", 2)))
	id := first[0].Movie.ID
	collectPage(t, s, "beta", collectedMovie(t, 7, "爱情公寓3", "2012", "", playServer("m3u8", "https://b.example/3", 1)))
	collectPage(t, s, "gamma", collectedMovie(t, 55, "愛情公寓：3", "2012", "", playServer("iframe", "https://g.example/3", 1)))
	wantMovieCount(t, s, 1)
	m := getMovie(t, s, id)
	if m.Name != "愛情公寓 3" || m.Synopsis != "alpha" {
		t.Errorf("the merged movie: name %q, synopsis %q; want alpha's", m.Name, m.Synopsis)
	}
	wantServers(t, "the merged movie", m.Episodes, playServer("m3u8", "https://a.example/3", 2),
		playServer("beta: m3u8", "https://b.example/3", 1), playServer("gamma: iframe", "https://g.example/3", 1))
}
