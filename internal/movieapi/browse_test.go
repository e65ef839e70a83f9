package movieapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// browseMovies have list values spelled several ways that fold alike,
// years and scores with ties, and one movie with none of them.
func browseMovies(t *testing.T) http.Handler {
	t.Helper()
	store := newTestStore(t)
	addMovies(t, store,
		movieInput{Movie: catalog.Movie{ID: 1, Name: "Alpha", Year: "2019", Score: "7.5"},
			lists: [catalog.NumLists][]string{{"Drama"}, {"Ann", "Bob"}, {"Dee"}, {"S1"}, {"G1"}, {"TH"}}},
		movieInput{Movie: catalog.Movie{ID: 2, Name: "Beta", Year: "2020", Score: "9.0"},
			lists: [catalog.NumLists][]string{{"Drama", "Comedy"}, {"ANN"}, nil, {"S2"}, nil, {"JP"}}},
		movieInput{Movie: catalog.Movie{ID: 3, Name: "Gamma", Year: "2019"},
			lists: [catalog.NumLists][]string{{"Comedy"}, {"Émile"}, nil, {"S1"}, nil, {"TH"}}},
		movieInput{Movie: catalog.Movie{ID: 4, Name: "Delta alpha", Year: "2021", Score: "7.5"},
			lists: [catalog.NumLists][]string{{"Drama"}, {"emile", "Bob"}, nil, nil, nil, {"th"}}},
		movieInput{Movie: catalog.Movie{ID: 5, Name: "Epsilon", Score: "10"},
			lists: [catalog.NumLists][]string{nil, {"Zoë"}, nil, nil, nil, nil}},
	)
	return newService(t, store, nil)
}

// Each filter matches one value of its list exactly, folded; filters
// combine with each other and with q (AND); total counts the matches;
// both /api/movies and /api/jav take them (contract 12).
func TestBrowseFilters(t *testing.T) {
	h := browseMovies(t)
	tests := []struct {
		query string
		want  []int64
	}{
		{"actor=ann", []int64{2, 1}},
		{"actor=%EF%BC%A1nn", []int64{2, 1}}, // full-width Ａ
		{"actor=EMILE", []int64{4, 3}},
		{"actor=Em", []int64{}}, // a whole value, not a substring
		{"actor=+Bob+", []int64{4, 1}},
		{"category=drama", []int64{4, 2, 1}},
		{"director=dee", []int64{1}},
		{"studio=s1", []int64{3, 1}},
		{"genre=G1", []int64{1}},
		{"country=th", []int64{4, 3, 1}},
		{"year=2019", []int64{3, 1}},
		{"year=2019-2020", []int64{3, 2, 1}},
		{"year=2021-2019", []int64{4, 3, 2, 1}},
		{"category=drama&actor=bob", []int64{4, 1}},
		{"category=comedy&country=jp&studio=s2", []int64{2}},
		{"q=alpha&category=drama", []int64{4, 1}},
		{"q=alpha&actor=ann", []int64{1}},
		{"q=alpha&year=2021", []int64{4}},
		{"actor=nobody", []int64{}},
		{"actor=&category=", []int64{5, 4, 3, 2, 1}}, // empty: no filter
	}
	for _, tt := range tests {
		for _, path := range []string{"/api/movies", "/api/jav"} {
			t.Run(path+"?"+tt.query, func(t *testing.T) {
				checkPage(t, h, path+"?fields=id&"+tt.query, tt.want, int64(len(tt.want)))
			})
		}
	}
}

// checkPage checks the ids and the total of the list at path.
func checkPage(t *testing.T, h http.Handler, path string, want []int64, total int64) {
	t.Helper()
	r := get(t, h, path, http.StatusOK)
	if got := listIDs(t, r.body); !slices.Equal(got, want) {
		t.Errorf("got ids %v, want %v", got, want)
	}
	if got := decodeListPage(t, r.body).Total; got != total {
		t.Errorf("got total %d, want %d", got, total)
	}
}

// Every order of contract 12, ties by id descending, those without a
// value last, at every depth.
func TestBrowseSort(t *testing.T) {
	h := browseMovies(t)
	tests := []struct {
		query string
		want  []int64
	}{
		{"", []int64{5, 4, 3, 2, 1}},
		{"sort=new", []int64{5, 4, 3, 2, 1}},
		{"sort=year", []int64{4, 2, 3, 1, 5}},
		{"sort=year&limit=2&page=2", []int64{3, 1}},
		{"sort=year&limit=2&page=3", []int64{5}},
		{"sort=year&limit=2&page=4", []int64{}},
		{"sort=score", []int64{5, 2, 4, 1, 3}},
		{"sort=score&limit=1&page=4", []int64{1}},
		{"sort=score&category=drama", []int64{2, 4, 1}},
		{"sort=year&actor=emile", []int64{4, 3}},
		{"sort=score&q=alpha", []int64{4, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := get(t, h, "/api/movies?fields=id&"+tt.query, http.StatusOK)
			if got := listIDs(t, r.body); !slices.Equal(got, tt.want) {
				t.Errorf("got ids %v, want %v", got, tt.want)
			}
		})
	}
}

type facetPage struct {
	Total, Page, Pagecount int64
	Limit                  string
	List                   []facetValue
}

func facets(t *testing.T, h http.Handler, query string) facetPage {
	t.Helper()
	r := get(t, h, "/api/movies/facets?"+query, http.StatusOK)
	var p facetPage
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return p
}

// A facet counts the values of its field over the list's other filters,
// most first, then by value; its values keep their first spelling; its
// total is the number of distinct values, paged as lists are.
func TestMovieFacets(t *testing.T) {
	h := browseMovies(t)
	tests := []struct {
		query string
		want  []facetValue
		total int64
	}{
		{"field=actor", []facetValue{{"Ann", 2}, {"Bob", 2}, {"Émile", 2}, {"Zoë", 1}}, 4},
		{"field=actor&category=drama", []facetValue{{"Ann", 2}, {"Bob", 2}, {"Émile", 1}}, 3},
		{"field=actor&limit=2&page=2", []facetValue{{"Émile", 2}, {"Zoë", 1}}, 4},
		{"field=actor&limit=2&page=3", []facetValue{}, 4},
		{"field=category&category=drama", []facetValue{{"Drama", 3}, {"Comedy", 2}}, 2}, // its own filter left out
		{"field=category&q=alpha", []facetValue{{"Drama", 2}}, 1},
		{"field=country", []facetValue{{"TH", 3}, {"JP", 1}}, 2},
		{"field=country&limit=1&page=2", []facetValue{{"JP", 1}}, 2},
		{"field=year", []facetValue{{"2019", 2}, {"2020", 1}, {"2021", 1}}, 3},
		{"field=year&year=2019", []facetValue{{"2019", 2}, {"2020", 1}, {"2021", 1}}, 3},
		{"field=year&actor=bob", []facetValue{{"2019", 1}, {"2021", 1}}, 2},
		{"field=studio&actor=nobody", []facetValue{}, 0},
		{"field=director", []facetValue{{"Dee", 1}}, 1},
		{"field=genre", []facetValue{{"G1", 1}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			p := facets(t, h, tt.query)
			if !slices.Equal(p.List, tt.want) || p.Total != tt.total {
				t.Errorf("got %v total %d, want %v total %d", p.List, p.Total, tt.want, tt.total)
			}
		})
	}
}

// Bad filters, sorts and facet fields are 400s naming the parameter.
func TestBrowseErrors(t *testing.T) {
	h := browseMovies(t)
	long := strings.Repeat("é", catalog.MaxFilterValue+1)
	tests := []struct{ target, msg string }{
		{"/api/movies?actor=" + long, "actor must be at most 256 characters"},
		{"/api/jav?studio=a%01b", "studio must not contain control characters"},
		{"/api/movies?country=%FF", "country must be valid UTF-8"},
		{"/api/movies?year=19", "year must be YYYY or YYYY-YYYY"},
		{"/api/movies?sort=name", "sort must be one of"},
		{"/api/movies/facets", "field must be one of"},
		{"/api/movies/facets?field=title", "field must be one of"},
		{"/api/movies/facets?field=actor&genre=" + long, "genre must be at most"},
		{"/api/movies/facets?field=actor&page=0", "page"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			checkError(t, get(t, h, tt.target, http.StatusBadRequest), http.StatusBadRequest, tt.msg)
		})
	}
	// 256 characters are allowed.
	get(t, h, "/api/movies?actor="+strings.Repeat("é", catalog.MaxFilterValue), http.StatusOK)
}

// facetValue is a record of a facet page.
type facetValue struct {
	Value string
	Count int64
}
