package maccms_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/movieapi/movietest"
)

// The MacCMS resource API (contract 6).

// thaiSynopsis is 150 characters of Thai (450 bytes): vod_blurb keeps
// the first 100 characters.
var thaiSynopsis = strings.Repeat("ก", 100) + strings.Repeat("ข", 50)

var vodChanged = time.Date(2026, 11, 1, 12, 34, 56, 0, time.UTC)

// dawn has every field the records use; its link holds both characters
// MacCMS splits play lists on.
var dawn = movietest.Movie{
	Movie: catalog.Movie{
		ID: 1, Name: "Dawn", Year: "2019", Poster1URL: "https://img.example/1.jpg", Poster2URL: "https://img.example/2.jpg",
		Synopsis: thaiSynopsis, IDCode: "ABC-1", Release: "2019-05-01", Score: "7.9", DoubanID: "30166972",
		Episodes: catalog.ShorthandEpisodes("https://player.example/e/1?a=$b#t", ""), UpdatedAt: vodChanged,
	},
	Lists: [catalog.NumLists][]string{{"Drama", "Thai"}, {"A One", "A Two"}, {"Dee Rector"}, {"S"}, {"Romance", "War"}, {"TH", "JP"}},
}

// dusk has nothing but a name, a category seen before, and a change
// time one hour after dawn's.
var dusk = movietest.Movie{Movie: catalog.Movie{ID: 2, Name: "Dusk", UpdatedAt: vodChanged.Add(time.Hour)},
	Lists: [catalog.NumLists][]string{{"Thai"}}}

// noon has no category at all.
var noon = movietest.Movie{Movie: catalog.Movie{ID: 3, Name: "Noon", UpdatedAt: vodChanged.Add(-time.Hour)}}

const (
	dawnList = `{"vod_id":1,"vod_name":"Dawn","type_id":1,"type_name":"Drama","vod_en":"dawn","vod_time":"2026-11-01 12:34:56","vod_remarks":"Full","vod_play_from":"iframe"}`
	duskList = `{"vod_id":2,"vod_name":"Dusk","type_id":2,"type_name":"Thai","vod_en":"dusk","vod_time":"2026-11-01 13:34:56","vod_remarks":"","vod_play_from":""}`
	noonList = `{"vod_id":3,"vod_name":"Noon","type_id":0,"type_name":"","vod_en":"noon","vod_time":"2026-11-01 11:34:56","vod_remarks":"","vod_play_from":""}`
	classes  = `"class":[{"type_id":1,"type_pid":0,"type_name":"Drama"},{"type_id":2,"type_pid":0,"type_name":"Thai"}]`
	// dawn's filters: its genres, countries (most used first, then by
	// value) and year under its type; dusk's type has no values.
	dawnFilters = `"filters":{"1":[{"key":"class","name":"Genre","value":[{"n":"Romance","v":"Romance"},{"n":"War","v":"War"}]},` +
		`{"key":"area","name":"Area","value":[{"n":"JP","v":"JP"},{"n":"TH","v":"TH"}]},{"key":"year","name":"Year","value":[{"n":"2019","v":"2019"}]}]}`
)

var (
	dawnFull = strings.TrimSuffix(dawnList, "}") + `,"vod_sub":"ABC-1","vod_pic":"https://img.example/2.jpg","vod_pic_slide":"https://img.example/1.jpg",` +
		`"vod_actor":"A One,A Two","vod_director":"Dee Rector","vod_area":"TH,JP","vod_class":"Romance,War",` +
		`"vod_writer":"","vod_lang":"","vod_tag":"","vod_year":"2019","vod_pubdate":"2019-05-01",` +
		`"vod_content":"` + thaiSynopsis + `","vod_blurb":"` + strings.Repeat("ก", 100) + `",` +
		`"vod_serial":"1","vod_isend":1,"vod_hits":0,"vod_hits_day":0,"vod_hits_week":0,"vod_hits_month":0,"vod_score":"7.9","vod_douban_id":30166972,"vod_douban_score":"7.9","vod_play_server":"no","vod_play_note":"Main","vod_play_url":"Full$https://player.example/e/1?a=%24b%23t"}`
	duskFull = strings.TrimSuffix(duskList, "}") + `,"vod_sub":"","vod_pic":"","vod_pic_slide":"",` +
		`"vod_actor":"","vod_director":"","vod_area":"","vod_class":"",` +
		`"vod_writer":"","vod_lang":"","vod_tag":"","vod_year":"","vod_pubdate":"",` +
		`"vod_content":"","vod_blurb":"",` +
		`"vod_serial":"0","vod_isend":1,"vod_hits":0,"vod_hits_day":0,"vod_hits_week":0,"vod_hits_month":0,"vod_score":"","vod_douban_id":0,"vod_douban_score":"","vod_play_server":"","vod_play_note":"","vod_play_url":""}`
)

func TestVodJSON(t *testing.T) {
	store := movietest.Store(t)
	movietest.Add(t, store, dawn, dusk, noon)
	h := movietest.Service(t, store, nil)
	head := `{"code":1,"msg":"data list","page":1,"pagecount":1,"limit":20,"total":3,"list":[`
	// The MacCMS JSON goldens: the list form with its classes, and full
	// records. A full record's members follow the field table, so their
	// order is not pinned: JSON objects are unordered.
	list := movietest.Get(t, h, movietest.VodPath, http.StatusOK)
	if want := head + duskList + `,` + dawnList + `,` + noonList + `],` + classes + `,` + dawnFilters + `}`; !movietest.SameJSON(t, list.Body, []byte(want)) {
		t.Errorf("list: got body\n%s\nwant\n%s", list.Body, want)
	}
	movietest.CheckHeader(t, list, "Content-Type", "application/json; charset=utf-8")
	full := movietest.Get(t, h, movietest.VodPath+"?ac=videolist&ids=1,2", http.StatusOK)
	if want := `{"code":1,"msg":"data list","page":1,"pagecount":1,"limit":20,"total":2,"list":[` + duskFull + `,` + dawnFull + `]}`; !movietest.SameJSON(t, full.Body, []byte(want)) {
		t.Errorf("videolist: got body\n%s\nwant\n%s", full.Body, want)
	}

	// The other spellings of the list answer it byte for byte.
	for _, target := range []string{movietest.VodPath + "?ac=list", movietest.VodPath + "?ac=anything", "/api.php/provide/vod?ac=list", "/api/provide/vod",
		"/api.php/provide/vod/at/json", "/api.php/provide/vod/at/json/?at=xml",
		// MacCMS's collector sends every parameter, empty when unset.
		movietest.VodPath + "?ac=list&t=&pg=&h=&ids=&wd=&year=&pagesize="} {
		if r := movietest.Get(t, h, target, http.StatusOK); !bytes.Equal(r.Body, list.Body) {
			t.Errorf("%s: got\n%s\nwant the list\n%s", target, r.Body, list.Body)
		}
	}
	// Pages: the envelope, the records and whether the classes come.
	for _, tt := range []struct {
		target          string
		page, pageCount int64
		limit           movietest.JSONText
		total           int64
		ids             []int64
		class           bool
	}{
		{movietest.VodPath + "?ac=detail&ids=1", 1, 1, "20", 1, []int64{1}, false},
		{movietest.VodPath + "?pg=2&pagesize=2", 2, 2, "2", 3, []int64{3}, true},
		{movietest.VodPath + "?pg=3&limit=2", 3, 2, "2", 3, []int64{}, true},
	} {
		t.Run(tt.target, func(t *testing.T) {
			r := movietest.Get(t, h, tt.target, http.StatusOK)
			got := movietest.DecodeListPage(t, r.Body)
			got.List = ""
			if want := (movietest.ListPage{Code: 1, Msg: "data list", Page: tt.page, PageCount: tt.pageCount, Limit: tt.limit, Total: tt.total}); got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
			var env struct {
				List  []json.RawMessage
				Class json.RawMessage
			}
			if err := json.Unmarshal(r.Body, &env); err != nil {
				t.Fatal(err)
			}
			ids := []int64{}
			for _, rec := range env.List {
				var v struct {
					ID int64 `json:"vod_id"`
				}
				if err := json.Unmarshal(rec, &v); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, v.ID)
			}
			if !slices.Equal(ids, tt.ids) {
				t.Errorf("got ids %v, want %v", ids, tt.ids)
			}
			if tt.class && !movietest.SameJSON(t, env.Class, []byte(classes[len(`"class":`):])) {
				t.Errorf("class: got %s, want %s", env.Class, classes)
			}
			if !tt.class && env.Class != nil {
				t.Errorf("class on a page of full records: %s", env.Class)
			}
		})
	}
	// A detail record is the full form.
	if r := movietest.Get(t, h, movietest.VodPath+"?ac=detail&ids=1", http.StatusOK); !bytes.Contains(r.Body, []byte(`"vod_play_url":"Full$https://player.example/e/1?a=%24b%23t"`)) {
		t.Errorf("detail: no full record in %s", r.Body)
	}

	// Every field and its JSON type: the ids and vod_isend are numbers,
	// everything else a string.
	numbers := []string{"vod_id", "type_id", "vod_isend", "vod_douban_id", "vod_hits", "vod_hits_day", "vod_hits_week", "vod_hits_month"}
	listKeys := []string{"vod_id", "vod_name", "type_id", "type_name", "vod_en", "vod_time", "vod_remarks", "vod_play_from"}
	fullKeys := append(slices.Clone(listKeys), "vod_sub", "vod_pic", "vod_pic_slide", "vod_actor", "vod_director", "vod_area",
		"vod_class", "vod_writer", "vod_lang", "vod_tag", "vod_year", "vod_pubdate", "vod_content", "vod_blurb", "vod_serial",
		"vod_isend", "vod_hits", "vod_hits_day", "vod_hits_week", "vod_hits_month", "vod_score", "vod_douban_id", "vod_douban_score", "vod_play_server", "vod_play_note", "vod_play_url")
	for _, tt := range []struct {
		ac   string
		keys []string
	}{{"list", listKeys}, {"videolist", fullKeys}, {"detail", fullKeys}} {
		t.Run("types of ac="+tt.ac, func(t *testing.T) {
			r := movietest.Get(t, h, movietest.VodPath+"?ac="+tt.ac, http.StatusOK)
			movietest.EqualKeys(t, "record", slices.Sorted(slices.Values(movietest.FirstListItemKeys(t, r.Body))), slices.Sorted(slices.Values(tt.keys)))
			var env struct{ List []map[string]any }
			if err := json.Unmarshal(r.Body, &env); err != nil {
				t.Fatal(err)
			}
			for _, rec := range env.List {
				for k, v := range rec {
					_, isNumber := v.(float64)
					_, isString := v.(string)
					if slices.Contains(numbers, k) != isNumber || (!isNumber && !isString) {
						t.Errorf("record %v: %s is %T, want a %s", rec["vod_id"], k, v,
							map[bool]string{true: "number", false: "string"}[slices.Contains(numbers, k)])
					}
				}
			}
			wantClass := tt.ac == "list"
			if got := movietest.ObjectKeys(t, r.Body); slices.Contains(got, "class") != wantClass {
				t.Errorf("envelope keys %q: class present = %v, want %v", got, !wantClass, wantClass)
			}
		})
	}
}

func TestVodEmptyCatalog(t *testing.T) {
	h := movietest.Service(t, movietest.Store(t), nil)
	r := movietest.Get(t, h, movietest.VodPath, http.StatusOK)
	if got, want := movietest.DecodeListPage(t, r.Body), (movietest.ListPage{Code: 1, Msg: "data list", Page: 1, PageCount: 0, Limit: "20", Total: 0, List: "[]"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if !bytes.HasSuffix(r.Body, []byte(`"class":[],"filters":{}}`)) {
		t.Errorf("no empty class list and filters in %s", r.Body)
	}
	// The MacCMS XML golden.
	want := `<?xml version="1.0" encoding="utf-8"?><rss version="5.1"><list page="1" pagecount="0" pagesize="20" recordcount="0"></list><class></class></rss>`
	if r := movietest.Get(t, h, movietest.VodPath+"?at=xml", http.StatusOK); string(r.Body) != want {
		t.Errorf("got %s, want %s", r.Body, want)
	}
}

// xmlRSS is MacCMS's XML form, as encoding/xml reads it.
type xmlRSS struct {
	XMLName xml.Name `xml:"rss"`
	Version string   `xml:"version,attr"`
	List    struct {
		Page        string     `xml:"page,attr"`
		PageCount   string     `xml:"pagecount,attr"`
		PageSize    string     `xml:"pagesize,attr"`
		RecordCount string     `xml:"recordcount,attr"`
		Videos      []xmlVideo `xml:"video"`
	} `xml:"list"`
	Class *struct {
		Types []struct {
			ID   string `xml:"id,attr"`
			Name string `xml:",chardata"`
		} `xml:"ty"`
	} `xml:"class"`
}

type xmlVideo struct {
	Last     string  `xml:"last"`
	ID       string  `xml:"id"`
	TID      string  `xml:"tid"`
	Name     string  `xml:"name"`
	Type     string  `xml:"type"`
	DT       string  `xml:"dt"`
	Note     *string `xml:"note"`
	Subname  *string `xml:"subname"`
	Pic      string  `xml:"pic"`
	Lang     *string `xml:"lang"`
	Area     string  `xml:"area"`
	Year     string  `xml:"year"`
	State    string  `xml:"state"`
	Actor    string  `xml:"actor"`
	Director string  `xml:"director"`
	DL       *struct {
		DD []struct {
			Flag string `xml:"flag,attr"`
			Note string `xml:"note,attr"`
			URL  string `xml:",chardata"`
		} `xml:"dd"`
	} `xml:"dl"`
	Des string `xml:"des"`
}

func parseRSS(t testing.TB, body []byte) xmlRSS {
	t.Helper()
	var rss xmlRSS
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	if err := dec.Decode(&rss); err != nil {
		t.Fatalf("XML does not parse: %v\n%s", err, body)
	}
	return rss
}

func TestVodXML(t *testing.T) {
	full := "Full"
	store := movietest.Store(t)
	// Titles and texts that break naive XML: markup characters, a CDATA
	// end, Thai, quotes; a category that needs escaping too.
	hard := []string{`<b>Fish & Chips</b>`, `a]]>b]]>`, `ภาพยนตร์ไทย`, `"quoted" 'single'`, "]]]>x", `]]`}
	in := make([]movietest.Movie, len(hard))
	for i, name := range hard {
		in[i] = movietest.Movie{Movie: catalog.Movie{ID: int64(i + 1), Name: name, Synopsis: name + "\n" + name,
			IDCode: name, Year: "2020", Poster1URL: "https://img.example/p.jpg?a=1&b=2",
			Episodes: catalog.ShorthandEpisodes("https://player.example/e?x=1&y=]]", ""), UpdatedAt: vodChanged.Add(time.Duration(i) * time.Minute)},
			Lists: [catalog.NumLists][]string{{name, "<&>"}, {name}, {name}, nil, nil, {name}}}
	}
	movietest.Add(t, store, in...)
	h := movietest.Service(t, store, nil)

	for _, target := range []string{movietest.VodPath + "?ac=detail&at=xml", "/api.php/provide/vod/at/xml?ac=videolist", "/api.php/provide/vod/at/xml/?ac=detail&at=json"} {
		t.Run(target, func(t *testing.T) {
			r := movietest.Get(t, h, target, http.StatusOK)
			movietest.CheckHeader(t, r, "Content-Type", "text/xml; charset=utf-8")
			rss := parseRSS(t, r.Body)
			if rss.Version != "5.1" || rss.List.Page != "1" || rss.List.PageCount != "1" || rss.List.PageSize != "20" || rss.List.RecordCount != "6" {
				t.Errorf("rss head: got version %q list %+v", rss.Version, rss.List)
			}
			if rss.Class != nil {
				t.Errorf("full records came with a class list")
			}
			if len(rss.List.Videos) != len(hard) {
				t.Fatalf("got %d videos, want %d", len(rss.List.Videos), len(hard))
			}
			for i, v := range rss.List.Videos {
				src := in[len(in)-1-i] // last change first
				name := src.Name
				want := xmlVideo{Last: src.UpdatedAt.Format("2006-01-02 15:04:05"), ID: fmt.Sprint(src.ID), TID: fmt.Sprint(typeIDOf(t, h, name)),
					Name: name, Type: name, DT: "iframe", Note: &full, Subname: &name, Pic: "https://img.example/p.jpg?a=1&b=2",
					Lang: new(string), Area: name, Year: "2020", State: "1", Actor: name, Director: name, Des: name + "\n" + name}
				got := v
				if got.DL == nil || len(got.DL.DD) != 1 || got.DL.DD[0].Flag != "iframe" || got.DL.DD[0].Note != "Main" || got.DL.DD[0].URL != "Full$https://player.example/e?x=1&y=]]" {
					t.Errorf("video %d: dl %+v, want one dd flag=iframe note=Main Full$link", src.ID, got.DL)
				}
				got.DL = nil
				if fmt.Sprintf("%+v", deref(got)) != fmt.Sprintf("%+v", deref(want)) {
					t.Errorf("video %d:\n got %+v\nwant %+v", src.ID, deref(got), deref(want))
				}
			}
		})
	}

	t.Run("list with classes", func(t *testing.T) {
		r := movietest.Get(t, h, movietest.VodPath+"?at=xml&pagesize=2", http.StatusOK)
		rss := parseRSS(t, r.Body)
		if rss.List.PageCount != "3" || rss.List.PageSize != "2" || len(rss.List.Videos) != 2 {
			t.Errorf("got list %+v, want 2 of 6 videos on 3 pages", rss.List)
		}
		v := rss.List.Videos[0]
		if v.Name != hard[5] || v.Subname != nil || v.DL != nil || v.Note == nil || *v.Note != "Full" || v.DT != "iframe" {
			t.Errorf("list record: got %+v, want the short form of %q", v, hard[5])
		}
		if rss.Class == nil {
			t.Fatalf("no <class> for ac=list")
		}
		var names []string
		for _, ty := range rss.Class.Types {
			names = append(names, ty.ID+"="+ty.Name)
		}
		want := []string{"1=" + hard[0], "2=<&>"}
		for i, name := range hard[1:] {
			want = append(want, fmt.Sprintf("%d=%s", i+3, name))
		}
		if !slices.Equal(names, want) {
			t.Errorf("classes: got %q, want %q", names, want)
		}
	})
}

// typeIDOf finds a category's type id from the JSON class list.
func typeIDOf(t testing.TB, h http.Handler, name string) int64 {
	t.Helper()
	var env struct {
		Class []struct {
			TypeID   int64  `json:"type_id"`
			TypeName string `json:"type_name"`
		}
	}
	if err := json.Unmarshal(movietest.Get(t, h, movietest.VodPath+"?pagesize=1", http.StatusOK).Body, &env); err != nil {
		t.Fatal(err)
	}
	for _, c := range env.Class {
		if c.TypeName == name {
			return c.TypeID
		}
	}
	t.Fatalf("no type %q", name)
	return 0
}

func deref(v xmlVideo) map[string]string {
	s := func(p *string) string {
		if p == nil {
			return "<absent>"
		}
		return *p
	}
	return map[string]string{"last": v.Last, "id": v.ID, "tid": v.TID, "name": v.Name, "type": v.Type, "dt": v.DT,
		"note": s(v.Note), "subname": s(v.Subname), "pic": v.Pic, "lang": s(v.Lang), "area": v.Area, "year": v.Year,
		"state": v.State, "actor": v.Actor, "director": v.Director, "des": v.Des}
}

func TestVodFilters(t *testing.T) {
	store := movietest.Store(t)
	now := time.Now()
	movietest.Add(t, store,
		movietest.Movie{Movie: catalog.Movie{ID: 1, Name: "Old drama", Year: "1999", UpdatedAt: now.Add(-72 * time.Hour)}, Lists: [catalog.NumLists][]string{{"Drama"}}},
		movietest.Movie{Movie: catalog.Movie{ID: 2, Name: "Ancient comedy", Year: "2005", UpdatedAt: now.Add(-400 * 24 * time.Hour)}, Lists: [catalog.NumLists][]string{{"Comedy"}}},
		movietest.Movie{Movie: catalog.Movie{ID: 3, Name: "Recent drama", Year: "2010", UpdatedAt: now.Add(-10 * time.Minute)}, Lists: [catalog.NumLists][]string{{"Drama", "Horror"}}},
	)
	h := movietest.Service(t, store, nil)
	tests := []struct {
		query string
		want  []int64
	}{
		{"", []int64{3, 1, 2}},
		{"h=1", []int64{3}},
		{"h=73", []int64{3, 1}},
		{"h=8760", []int64{3, 1}},
		{"ids=2,99,1,1", []int64{1, 2}},
		{"ids=99,100", []int64{}},
		{"t=1", []int64{3, 1}},
		{"t=2", []int64{2}},
		{"t=3", []int64{}}, // Horror: a type, but no movie's first category
		{"t=999", []int64{}},
		{"wd=DRAMA", []int64{3, 1}},
		{"wd=drama+old", []int64{1}},
		{"wd=+++", []int64{3, 1, 2}},
		{"year=2005", []int64{2}},
		{"year=1999-2005", []int64{1, 2}},
		{"year=2010-1999", []int64{3, 1, 2}},
		{"year=2011-2020", []int64{}},
		{"t=1&h=1&wd=drama&year=2010&ids=3,1", []int64{3}},
		{"pagesize=500", []int64{3, 1, 2}},
		// f, FongMi TV's form (contract 12): its members are the
		// parameters of the same names; a plain parameter wins; an empty
		// value, null, lang and other members are no filter.
		{fParam(`{"year":"2005"}`), []int64{2}},
		{fParam(`{"year":2005}`), []int64{2}},
		{fParam(`{"year":"1999-2005","lang":"th"}`), []int64{1, 2}},
		{"year=2010&" + fParam(`{"year":"2005"}`), []int64{3}},
		{fParam(`{"year":""}`), []int64{3, 1, 2}},
		{fParam(`{"year":null,"area":"","class":"","by":""}`), []int64{3, 1, 2}},
		{fParam(`{}`), []int64{3, 1, 2}},
		{fParam(`{"sort":"x","pg":"2","year":"2005"}`), []int64{2}},
		{"f=", []int64{3, 1, 2}},
		{"lang=th", []int64{3, 1, 2}},
		{"by=time", []int64{3, 1, 2}},
		{fParam(`{"by":"time"}`), []int64{3, 1, 2}},
	}
	for _, tt := range tests {
		for _, ac := range []string{"list", "detail"} {
			t.Run(ac+"?"+tt.query, func(t *testing.T) {
				r := movietest.Get(t, h, movietest.VodPath+"?ac="+ac+"&"+tt.query, http.StatusOK)
				if got := vodIDs(t, r.Body); !slices.Equal(got, tt.want) {
					t.Errorf("got ids %v, want %v", got, tt.want)
				}
			})
		}
	}

	t.Run("pagesize above 100 is clamped", func(t *testing.T) {
		for _, q := range []string{"pagesize=500", "limit=101", "pagesize=99999999999999999999999"} {
			if got := movietest.DecodeListPage(t, movietest.Get(t, h, movietest.VodPath+"?"+q, http.StatusOK).Body).Limit; got != "100" {
				t.Errorf("%s: got limit %s, want the number 100", q, got)
			}
		}
	})

	// A change moves a record into h's window and to the front.
	t.Run("h sees a changed record", func(t *testing.T) {
		movietest.Add(t, store, movietest.Movie{Movie: catalog.Movie{ID: 2, Name: "Ancient comedy", Year: "2005", Synopsis: "now with a synopsis"},
			Lists: [catalog.NumLists][]string{{"Comedy"}}})
		for _, q := range []string{"h=1", "h=1&ac=detail"} {
			if got := vodIDs(t, movietest.Get(t, h, movietest.VodPath+"?"+q, http.StatusOK).Body); !slices.Equal(got, []int64{2, 3}) {
				t.Errorf("%s after a change: got ids %v, want [2 3]", q, got)
			}
		}
		if got := vodIDs(t, movietest.Get(t, h, movietest.VodPath, http.StatusOK).Body); !slices.Equal(got, []int64{2, 3, 1}) {
			t.Errorf("order after a change: got ids %v, want [2 3 1]", got)
		}
	})
}

// fParam is the parameter f carrying the JSON text js.
func fParam(js string) string { return "f=" + url.QueryEscape(js) }

func vodIDs(t testing.TB, body []byte) []int64 {
	t.Helper()
	var env struct {
		List []struct {
			ID int64 `json:"vod_id"`
		}
	}
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	ids := []int64{}
	for _, v := range env.List {
		ids = append(ids, v.ID)
	}
	return ids
}

func TestVodErrors(t *testing.T) {
	store := movietest.Store(t)
	movietest.AddNumbered(t, store, 1)
	h := movietest.Service(t, store, nil)
	tests := []struct{ query, param string }{
		{"pg=abc", "pg"}, {"pg=-1", "pg"}, {"pg=1.5", "pg"}, {"pg=99999999999999999999", "pg"},
		{"pagesize=x", "pagesize"}, {"pagesize=-2", "pagesize"},
		{"limit=1e3", "limit"},
		{"t=abc", "t "}, {"t=-1", "t "}, {"t=99999999999999999999", "t "},
		{"h=8761", "h "}, {"h=x", "h "}, {"h=-1", "h "},
		{"ids=" + strings.Repeat("1,", 100) + "1", "ids"},
		{"year=99", "year"}, {"year=2019-20", "year"}, {"year=abcd", "year"}, {"year=2019-", "year"}, {"year=2019-2020-2021", "year"},
		{"wd=abc%00def", "wd "}, {"wd=%ff", "wd "}, {"wd=" + strings.Repeat("x", 257), "wd must be at most 256 characters"},
		{"wd=" + strings.Repeat("w+", 16) + "a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q", "wd must have at most 16 distinct words"},
		// The browse filters (contract 12) and f, FongMi TV's form of them.
		{"area=a%00b", "area must not contain control characters"}, {"area=%ff", "area must be valid UTF-8"},
		{"area=" + strings.Repeat("ก", 257), "area must be at most 256 characters"},
		{"class=%7f", "class must not contain control characters"}, {"class=" + strings.Repeat("x", 257), "class must be at most 256 characters"},
		{"by=popular", "by must be one of time, hits, hits_day, hits_week, hits_month, score"}, {"by=TIME", "by must be one of"},
		{fParam(`{"year":"20x"}`), "f: year must be YYYY"}, {fParam(`{"year":2019.5}`), "f: year must be YYYY"},
		{fParam(`{"by":"new"}`), "f: by must be one of"}, {fParam(`{"class":"a\u0000b"}`), "f: class must not contain control characters"},
		{fParam(`{"area":{"n":"TH"}}`), "f: area must be a string"}, {fParam(`{"class":["Drama"]}`), "f: class must be a string"},
		{fParam(`{"year":true}`), "f: year must be a string"},
		{fParam(`{"year":"2019"`), "f must be a JSON object"}, {fParam(`["Drama"]`), "f must be a JSON object"},
		{fParam(`"Drama"`), "f must be a JSON object"}, {fParam(`null`), "f must be a JSON object"}, {"f=year%3D2019", "f must be a JSON object"},
		// A bad plain parameter is refused though f has a good one.
		{"year=20x&" + fParam(`{"year":"2019"}`), "year must be YYYY"},
	}
	for _, tt := range tests {
		for _, path := range []string{movietest.VodPath, "/api.php/provide/vod/at/xml"} {
			t.Run(path+"?"+tt.query, func(t *testing.T) {
				movietest.CheckError(t, movietest.Do(t, h, http.MethodGet, path+"?"+tt.query), http.StatusBadRequest, tt.param)
			})
		}
	}
	for _, tt := range []struct {
		method, target string
		status         int
	}{
		{"POST", movietest.VodPath, 405}, {"DELETE", "/api.php/provide/vod", 405}, {"PUT", "/api/provide/vod", 405},
		{"GET", "/api/provide/vod/", 404},
	} {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			movietest.CheckError(t, movietest.Do(t, h, tt.method, tt.target), tt.status, "")
		})
	}
}

func TestVodHeaders(t *testing.T) {
	store := movietest.Store(t)
	movietest.AddNumbered(t, store, 30)
	h := movietest.Service(t, store, nil)
	paths := []string{"/api.php/provide/vod", movietest.VodPath, "/api/provide/vod", "/api.php/provide/vod/at/xml", "/api.php/provide/vod/at/xml/",
		"/api.php/provide/vod/at/json", "/api.php/provide/vod/at/json/"}
	for _, path := range paths {
		for _, q := range []string{"?ac=detail", "?ac=list&h=24"} {
			t.Run(path+q, func(t *testing.T) {
				r := movietest.Get(t, h, path+q, http.StatusOK)
				movietest.CheckHeader(t, r, "Access-Control-Allow-Origin", "*")
				movietest.CheckHeader(t, r, "Cache-Control", "public, max-age=86400, stale-while-revalidate=600")
				movietest.CheckHeader(t, r, "X-Content-Type-Options", "nosniff")
				wantType := "application/json; charset=utf-8"
				if strings.Contains(path, "xml") {
					wantType = "text/xml; charset=utf-8"
				}
				movietest.CheckHeader(t, r, "Content-Type", wantType)
				if len(r.Body) <= 1024 {
					t.Fatalf("body too small to test gzip: %d bytes", len(r.Body))
				}
				tag := r.Header.Get("ETag")
				if !strings.HasPrefix(tag, `"`) {
					t.Fatalf("got ETag %q, want a strong tag", tag)
				}
				nm := movietest.Do(t, h, http.MethodGet, path+q, "If-None-Match", tag)
				if nm.Status != http.StatusNotModified || len(nm.Body) != 0 {
					t.Errorf("If-None-Match: got %d with %d bytes, want 304 without body", nm.Status, len(nm.Body))
				}
				gz := movietest.Get(t, h, path+q, http.StatusOK, "Accept-Encoding", "gzip")
				movietest.CheckHeader(t, gz, "Content-Encoding", "gzip")
				movietest.CheckHeader(t, gz, "Content-Type", wantType)
				zr, err := gzip.NewReader(bytes.NewReader(gz.Body))
				if err != nil {
					t.Fatal(err)
				}
				if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, r.Body) {
					t.Errorf("gzip body does not decompress to the plain body (%v)", err)
				}
				if gz.Header.Get("ETag") == tag {
					t.Errorf("gzip and plain bodies share the ETag %s", tag)
				}
				if nm := movietest.Do(t, h, http.MethodGet, path+q, "If-None-Match", tag, "Accept-Encoding", "gzip"); nm.Status != http.StatusOK {
					t.Errorf("plain tag on a gzip request: got %d, want 200", nm.Status)
				}
				pre := movietest.Do(t, h, http.MethodOptions, path, "Access-Control-Request-Method", "GET")
				if pre.Status != http.StatusNoContent {
					t.Errorf("OPTIONS: got %d, want 204", pre.Status)
				}
				movietest.CheckHeader(t, pre, "Access-Control-Allow-Origin", "*")
				movietest.CheckHeader(t, pre, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			})
		}
	}
}

// TestVodCacheSeesWrites: cached answers follow the data version.
func TestVodCacheSeesWrites(t *testing.T) {
	store := movietest.Store(t)
	movietest.Add(t, store, dawn)
	h := movietest.Service(t, store, nil)
	first := movietest.Get(t, h, movietest.VodPath, http.StatusOK)
	movietest.Add(t, store, dusk)
	second := movietest.Get(t, h, movietest.VodPath, http.StatusOK)
	if bytes.Equal(first.Body, second.Body) || !bytes.Contains(second.Body, []byte(`"vod_name":"Dusk"`)) {
		t.Errorf("answer after a write: got %s", second.Body)
	}
}

// Deep pages from a service that has already served one equal those of
// a fresh service, with change times that tie.
func TestVodDeepPagesMatchOffsetPages(t *testing.T) {
	store := movietest.Store(t)
	in := make([]movietest.Movie, 700)
	for i := range in {
		in[i] = movietest.Movie{Movie: catalog.Movie{ID: int64(i + 1), Name: fmt.Sprintf("Movie %d", i+1), Episodes: catalog.ShorthandEpisodes("https://p.example/e", ""),
			UpdatedAt: vodChanged.Add(time.Duration(i%13) * time.Minute)}, Lists: [catalog.NumLists][]string{{fmt.Sprintf("C%d", i%4)}}}
	}
	movietest.Add(t, store, in...)
	warm := movietest.Service(t, store, nil)
	movietest.Get(t, warm, movietest.VodPath+"?pg=100&pagesize=10", http.StatusOK)
	for _, target := range []string{
		movietest.VodPath + "?ac=detail&pg=60&pagesize=10",
		movietest.VodPath + "?pg=35",
		movietest.VodPath + "?ac=videolist&pg=700&pagesize=1",
		movietest.VodPath + "?pg=701&pagesize=1",
		movietest.VodPath + "?at=xml&pg=51&pagesize=12",
	} {
		cold := movietest.Service(t, store, nil)
		want := movietest.Get(t, cold, target, http.StatusOK).Body
		if got := movietest.Get(t, warm, target, http.StatusOK).Body; string(got) != string(want) {
			t.Errorf("%s: page after a deep page\n%s\nwant the fresh service's page\n%s", target, got, want)
		}
	}
}
