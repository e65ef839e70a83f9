package movieapi_test

import (
	"fmt"
	"testing"

	"catalog/internal/catalog"
)

// sort=title is the folded title ascending (case and width folded, the
// id_code no part of it), ties by id descending, at every depth, under
// filters and q, on both lists (contract 12).
func TestBrowseSortTitle(t *testing.T) {
	store := newTestStore(t)
	drama := [catalog.NumLists][]string{{"Drama"}}
	addMovies(t, store,
		movieInput{Movie: catalog.Movie{ID: 1, Name: "beta"}, lists: drama},
		movieInput{Movie: catalog.Movie{ID: 2, Name: "Alpha"}},
		movieInput{Movie: catalog.Movie{ID: 3, Name: "ALPHA", IDCode: "ZZZ-001"}, lists: drama},
		movieInput{Movie: catalog.Movie{ID: 4, Name: "Gamma"}, lists: drama},
		movieInput{Movie: catalog.Movie{ID: 5, Name: "\uff21lpha", IDCode: "AAA-001"}}, // full-width Ａ
		movieInput{Movie: catalog.Movie{ID: 6, Name: "Alpha beta"}, lists: drama},
		movieInput{Movie: catalog.Movie{ID: 7, Name: "Beta"}},
	)
	h := newService(t, store, nil)
	all := []int64{5, 3, 2, 6, 7, 1, 4}
	type test struct {
		query string
		want  []int64
		total int64
	}
	tests := []test{
		{"sort=title", all, 7},
		{"sort=title&category=drama", []int64{3, 6, 1, 4}, 4},
		{"sort=title&category=drama&limit=1&page=3", []int64{1}, 4},
		{"sort=title&q=alpha", []int64{5, 3, 2, 6}, 4},
		{"sort=title&q=beta&limit=1&page=2", []int64{7}, 3},
		{"sort=title&limit=2&page=5", []int64{}, 7},
	}
	for i := range all { // every page of one
		tests = append(tests, test{fmt.Sprintf("sort=title&limit=1&page=%d", i+1), all[i : i+1], 7})
	}
	for _, tt := range tests {
		for _, path := range []string{"/api/movies", "/api/jav"} {
			t.Run(path+"?"+tt.query, func(t *testing.T) {
				checkPage(t, h, path+"?fields=id&"+tt.query, tt.want, tt.total)
			})
		}
	}
}
