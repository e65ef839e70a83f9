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

// Browsing the resource API (contract 12 with 6): area, class, year and
// f filter every ac, by orders, ac=list answers filters per type.

// browseMovie is a movie of the browse tests: its categories (the first
// is its type), genres, countries, year and score, changed hours after
// browseEpoch.
func browseMovie(id int64, hours int, year, score string, categories, genres, countries []string) movietest.Movie {
	var lists [catalog.NumLists][]string
	lists[0], lists[4], lists[5] = categories, genres, countries
	return movietest.Movie{Movie: catalog.Movie{ID: id, Name: fmt.Sprintf("Movie %d", id), Year: year, Score: score,
		UpdatedAt: browseEpoch.Add(time.Duration(hours) * time.Hour)}, Lists: lists}
}

var browseEpoch = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

// browseMovies: types Drama (1, 2, 3), Comedy (4) and Horror (no movie's
// first category); movie 5 has no type.
var browseMovies = []movietest.Movie{
	browseMovie(1, 0, "2019", "7.0", []string{"Drama"}, []string{"Romance"}, []string{"TH"}),
	browseMovie(2, 1, "2020", "9.0", []string{"Drama"}, []string{"Romance", "War"}, []string{"JP"}),
	browseMovie(3, 2, "2020", "", []string{"Drama"}, []string{"War"}, []string{"TH"}),
	browseMovie(4, 3, "2019", "8.0", []string{"Comedy", "Horror"}, []string{"Romance"}, []string{"TH"}),
	browseMovie(5, 4, "2021", "", nil, []string{"Romance"}, []string{"TH"}),
}

func TestVodBrowse(t *testing.T) {
	store := movietest.Store(t)
	movietest.Add(t, store, browseMovies...)
	h := movietest.Service(t, store, nil)
	drama := typeIDOf(t, h, "Drama")
	tests := []struct {
		query string
		want  []int64
	}{
		{"", []int64{5, 4, 3, 2, 1}},
		// area is a country, class a genre: one value each, folded.
		{"area=TH", []int64{5, 4, 3, 1}},
		{"area=th", []int64{5, 4, 3, 1}},
		{"area=%EF%BC%B4%EF%BC%A8", []int64{5, 4, 3, 1}}, // full-width ＴＨ
		{"area=+TH+", []int64{5, 4, 3, 1}},
		{"area=T", []int64{}}, // a whole value, not a part
		{"area=Nowhere", []int64{}},
		{"class=Romance", []int64{5, 4, 2, 1}},
		{"class=romance&area=JP", []int64{2}},
		{"class=War&year=2020", []int64{3, 2}},
		{"class=Drama", []int64{}}, // a category is not a genre
		{fmt.Sprintf("t=%d&class=Romance", drama), []int64{2, 1}},
		{"wd=movie+4&area=TH", []int64{4}},
		{"ids=1,2,3&class=War", []int64{3, 2}},
		{"area=", []int64{5, 4, 3, 2, 1}},
		{"lang=th", []int64{5, 4, 3, 2, 1}},
		// f: the same, FongMi's form.
		{fParam(`{"class":"Romance","area":"TH"}`), []int64{5, 4, 1}},
		{fParam(`{"class":"Romance","area":"TH","lang":"","year":""}`), []int64{5, 4, 1}},
		{"area=JP&" + fParam(`{"area":"TH"}`), []int64{2}},
		// by: time (the default), score; sort_direction reverses time only.
		{"by=time", []int64{5, 4, 3, 2, 1}},
		{"by=time&sort_direction=asc", []int64{1, 2, 3, 4, 5}},
		{"by=score", []int64{2, 4, 1, 5, 3}},
		{"by=score&sort_direction=asc", []int64{2, 4, 1, 5, 3}},
		{fmt.Sprintf("by=score&t=%d", drama), []int64{2, 1, 3}},
		{fParam(`{"by":"score","year":"2019"}`), []int64{4, 1}},
		{"by=score&area=TH", []int64{4, 1, 5, 3}},
	}
	for _, tt := range tests {
		for _, ac := range []string{"list", "detail", "videolist"} {
			t.Run(ac+"?"+tt.query, func(t *testing.T) {
				r := movietest.Get(t, h, movietest.VodPath+"?ac="+ac+"&"+tt.query, http.StatusOK)
				if got := vodIDs(t, r.Body); !slices.Equal(got, tt.want) {
					t.Errorf("got ids %v, want %v", got, tt.want)
				}
				if got := movietest.DecodeListPage(t, r.Body).Total; got != int64(len(tt.want)) {
					t.Errorf("got total %d, want %d", got, len(tt.want))
				}
			})
		}
	}
	// Paging counts what the filters leave.
	r := movietest.Get(t, h, movietest.VodPath+"?area=TH&pagesize=3&pg=2", http.StatusOK)
	if got, page := vodIDs(t, r.Body), movietest.DecodeListPage(t, r.Body); !slices.Equal(got, []int64{1}) || page.Total != 4 || page.PageCount != 2 {
		t.Errorf("area=TH page 2 of 3: got ids %v, %+v; want [1], total 4, 2 pages", got, page)
	}
}

// vodFiltersOf decodes the filters of an ac=list answer.
func vodFiltersOf(t testing.TB, body []byte) map[string][]vodFilter {
	t.Helper()
	var env struct{ Filters map[string][]vodFilter }
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return env.Filters
}

type vodFilter struct {
	Key, Name string
	Value     []struct{ N, V string }
}

// values is the v of each of f's values.
func (f vodFilter) values() []string {
	var out []string
	for _, v := range f.Value {
		if v.N != v.V {
			return append(out, "n "+v.N+" is not v "+v.V)
		}
		out = append(out, v.V)
	}
	return out
}

func TestVodFiltersObject(t *testing.T) {
	store := movietest.Store(t)
	movies := append([]movietest.Movie(nil), browseMovies...)
	// Type Many: 31 genres, g31 on two movies.
	var many []string
	for i := 1; i <= 31; i++ {
		many = append(many, fmt.Sprintf("g%02d", i))
	}
	movies = append(movies, browseMovie(6, 5, "", "", []string{"Many"}, many, nil),
		browseMovie(7, 6, "", "", []string{"Many"}, []string{"g31"}, nil))
	movietest.Add(t, store, movies...)
	h := movietest.Service(t, store, nil)
	id := func(name string) string { return fmt.Sprint(typeIDOf(t, h, name)) }
	filters := vodFiltersOf(t, movietest.Get(t, h, movietest.VodPath, http.StatusOK).Body)
	type key struct{ typ, key string }
	got := map[key][]string{}
	for typ, fs := range filters {
		var keys []string
		for _, f := range fs {
			got[key{typ, f.Key}] = f.values()
			keys = append(keys, f.Key+" "+f.Name)
		}
		// Every type's filters in one order: genre, area, year.
		if want := []string{"class Genre", "area Area", "year Year"}; !slices.Equal(keys, want[:len(keys)]) && typ != id("Many") {
			t.Errorf("type %s: filters %q, want %q", typ, keys, want)
		}
	}
	wantMany := append([]string{"g31"}, many[:29]...)
	want := map[key][]string{
		// Most used by the type's movies first, then by value.
		{id("Drama"), "class"}:  {"Romance", "War"},
		{id("Drama"), "area"}:   {"TH", "JP"},
		{id("Drama"), "year"}:   {"2020", "2019"},
		{id("Comedy"), "class"}: {"Romance"},
		{id("Comedy"), "area"}:  {"TH"},
		{id("Comedy"), "year"}:  {"2019"},
		// At most 30 values; a filter without values is left out (Many
		// has no area and no year), and so is a type without any (Horror).
		{id("Many"), "class"}: wantMany,
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("type %s %s: got %q, want %q", k.typ, k.key, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("type %s: unexpected filter %s: %q", k.typ, k.key, got[k])
		}
	}
	// Only ac=list carries them, as class.
	if body := movietest.Get(t, h, movietest.VodPath+"?ac=detail", http.StatusOK).Body; strings.Contains(string(body), `"filters"`) {
		t.Errorf("filters on ac=detail: %s", body)
	}
	// A filter picked does not narrow the filters offered.
	if again := vodFiltersOf(t, movietest.Get(t, h, movietest.VodPath+"?area=JP&t="+id("Drama"), http.StatusOK).Body); len(again[id("Drama")]) != 3 ||
		len(again[id("Drama")][1].Value) != 2 {
		t.Errorf("filters under area=JP: %+v", again)
	}
}
