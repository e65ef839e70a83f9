package maccms_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"catalog/internal/movieapi/movietest"
)

// FongMi TV (github.com/FongMi/TV) browses a MacCMS JSON site (its
// type 1) as its source does:
//
//   - home (SiteApi.homeContent): a GET of the site's address with no
//     parameter, read as Result: class (type_id, type_name) and filters,
//     a map from type id to a filter or a list of filters (FilterAdapter),
//     each with key, name and value, a list of n (shown) and v; the
//     filters of a type are those under its type_id (setTypes);
//   - a value picked (VodFragment.setClick) puts v under the filter's
//     key in the type's extend map;
//   - a category page (SiteApi.categoryContent): f = Gson's JSON of
//     extend when extend is not empty, ac=detail, t = type_id, pg.
//
// The test plays those rules against the service: every value offered
// is picked alone, then one of each filter together, and the page must
// hold exactly the movies of the type with those values.
func TestFongMiFilters(t *testing.T) {
	store := movietest.Store(t)
	movies := append([]movietest.Movie(nil), browseMovies...)
	// Values that Gson escapes (<, >, &, =, ') and one in Thai.
	movies = append(movies, browseMovie(8, 7, "2018", "", []string{"Drama"}, []string{"Rock & Roll <Live>", "a=b's"}, []string{"ไทย"}))
	movietest.Add(t, store, movies...)
	srv := httptest.NewServer(movietest.Service(t, store, nil))
	t.Cleanup(srv.Close)
	api := srv.URL + "/api.php/provide/vod/"

	home := fongmiHome(t, api)
	if len(home.types) == 0 {
		t.Fatal("no types in the home answer")
	}
	picked := 0
	for _, typ := range home.types {
		filters := home.filters[typ.id]
		var all map[string]string // one value of each filter
		for _, f := range filters {
			for _, v := range f.Value {
				fongmiCheckPage(t, api, home, typ.id, map[string]string{f.Key: v.V}, movies)
				picked++
			}
			if all == nil {
				all = map[string]string{}
			}
			all[f.Key] = f.Value[len(f.Value)-1].V
		}
		if all != nil {
			fongmiCheckPage(t, api, home, typ.id, all, movies)
		}
		fongmiCheckPage(t, api, home, typ.id, map[string]string{}, movies) // nothing picked: no f
	}
	if picked < 10 {
		t.Errorf("only %d values offered", picked)
	}
}

type fongmiType struct{ id, name string }

type fongmiFilter struct {
	Key, Name, Init string
	Value           []struct{ N, V string }
}

type fongmiResult struct {
	types   []fongmiType
	filters map[string][]fongmiFilter
}

// typeID is the type_id of a category name.
func (r fongmiResult) typeID(name string) string {
	for _, ty := range r.types {
		if ty.name == name {
			return ty.id
		}
	}
	return ""
}

// fongmiHome reads the home answer as Result.fromJson with its
// FilterAdapter and setTypes do.
func fongmiHome(t *testing.T, api string) fongmiResult {
	t.Helper()
	var raw struct {
		Class []struct {
			TypeID   json.Number `json:"type_id"` // Gson reads a number into Class's String
			TypeName string      `json:"type_name"`
		}
		Filters map[string]json.RawMessage
	}
	if err := json.Unmarshal(fongmiGet(t, api), &raw); err != nil {
		t.Fatal(err)
	}
	res := fongmiResult{filters: map[string][]fongmiFilter{}}
	for _, c := range raw.Class {
		res.types = append(res.types, fongmiType{c.TypeID.String(), c.TypeName})
	}
	for key, el := range raw.Filters {
		var list []fongmiFilter
		if strings.HasPrefix(strings.TrimSpace(string(el)), "{") {
			var one fongmiFilter
			if err := json.Unmarshal(el, &one); err != nil {
				t.Fatal(err)
			}
			list = append(list, one)
		} else if err := json.Unmarshal(el, &list); err != nil {
			t.Fatal(err)
		}
		// setTypes: only filters under a type's id are shown.
		if !slices.ContainsFunc(res.types, func(ty fongmiType) bool { return ty.id == key }) {
			t.Errorf("filters under %q, which is no type_id", key)
		}
		res.filters[key] = list
	}
	return res
}

// fongmiCheckPage asks for the type's first page with extend as
// categoryContent does, and checks it against the movies.
func fongmiCheckPage(t *testing.T, api string, home fongmiResult, tid string, extend map[string]string, movies []movietest.Movie) {
	t.Helper()
	params := url.Values{"ac": {"detail"}, "t": {tid}, "pg": {"1"}}
	if len(extend) > 0 {
		params.Set("f", gsonJSON(extend))
	}
	var page struct {
		Total int64
		List  []struct {
			ID     int64  `json:"vod_id"`
			TypeID int64  `json:"type_id"`
			Class  string `json:"vod_class"`
			Area   string `json:"vod_area"`
			Year   string `json:"vod_year"`
		}
	}
	target := api + "?" + params.Encode()
	if err := json.Unmarshal(fongmiGet(t, target), &page); err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i := len(movies) - 1; i >= 0; i-- { // last change first: the ids run with the change times
		m := movies[i]
		if len(m.Lists[0]) == 0 || !fongmiMatches(m, extend) {
			continue
		}
		if home.typeID(m.Lists[0][0]) == tid {
			want = append(want, m.ID)
		}
	}
	var got []int64
	for _, v := range page.List {
		got = append(got, v.ID)
	}
	if !slices.Equal(got, want) || page.Total != int64(len(want)) {
		t.Errorf("type %s, extend %v: got ids %v (total %d), want %v", tid, extend, got, page.Total, want)
	}
}

// fongmiMatches reports whether m has every value picked.
func fongmiMatches(m movietest.Movie, extend map[string]string) bool {
	for key, v := range extend {
		switch key {
		case "class":
			if !slices.Contains(m.Lists[4], v) {
				return false
			}
		case "area":
			if !slices.Contains(m.Lists[5], v) {
				return false
			}
		case "year":
			if m.Year != v {
				return false
			}
		}
	}
	return true
}

func fongmiGet(t *testing.T, target string) []byte {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s %v", target, res.StatusCode, body, err)
	}
	return body
}

// gsonJSON is Gson's toJson of a HashMap<String, String>: a JSON object
// whose strings escape <, >, &, = and ' as \u003c and so on (Gson's
// HTML-safe default).
func gsonJSON(m map[string]string) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, v := range m {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(gsonString(k) + ":" + gsonString(v))
	}
	return b.String() + "}"
}

func gsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || strings.ContainsRune("<>&='", r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String() + `"`
}
