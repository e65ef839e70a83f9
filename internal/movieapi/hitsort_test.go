package movieapi_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// The hits orders (contract 12): count in the kind's current period
// highest first, ties by id highest first; a count of a period the
// clock has left is 0 (movie 4's, counted 40 days ago, rolls over in
// every period but the total). Deep pages go on through the movies at 0.
func TestSortByHits(t *testing.T) {
	store := newTestStore(t)
	for id := int64(1); id <= 6; id++ {
		addMovies(t, store, movieInput{Movie: catalog.Movie{ID: id, Name: "Movie"}})
	}
	today := catalog.HitDayOf(time.Now())
	ctx := context.Background()
	if err := store.AddHits(ctx, today-40, []catalog.HitCount{{ID: 4, N: 9}}); err != nil {
		t.Fatal(err)
	}
	if err := store.AddHits(ctx, today, []catalog.HitCount{{ID: 1, N: 3}, {ID: 2, N: 5}, {ID: 3, N: 3}}); err != nil {
		t.Fatal(err)
	}
	h := newService(t, store, nil)
	period := []int64{2, 3, 1, 6, 5, 4}
	tests := []struct {
		query string
		want  []int64
	}{
		{"sort=hits", []int64{4, 2, 3, 1, 6, 5}},
		{"sort=hits_day", period},
		{"sort=hits_week", period},
		{"sort=hits_month", period},
		{"sort=hits&limit=2&page=2", []int64{3, 1}},
		{"sort=hits&limit=2&page=3", []int64{6, 5}},
		{"sort=hits_day&limit=2&page=2", []int64{1, 6}},
		{"sort=hits_month&limit=4&page=2", []int64{5, 4}},
	}
	for _, tt := range tests {
		for _, path := range []string{"/api/movies", "/api/jav"} {
			t.Run(path+"?"+tt.query, func(t *testing.T) {
				r := get(t, h, path+"?fields=id&"+tt.query, http.StatusOK)
				if path == "/api/jav" {
					return // takes the orders (200); none of these movies is JAV
				}
				if got := listIDs(t, r.body); !slices.Equal(got, tt.want) {
					t.Errorf("got ids %v, want %v", got, tt.want)
				}
			})
		}
	}
}
