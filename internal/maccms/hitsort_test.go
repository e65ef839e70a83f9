package maccms_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/movieapi/movietest"
)

// by=hits|hits_day|hits_week|hits_month (contract 12): the count
// highest first, ties by id highest first, whatever sort_direction
// says; movie 4's hits, counted 40 days ago, are 0 in every period but
// the total (rollover).
func TestVodByHits(t *testing.T) {
	store := movietest.Store(t)
	movietest.Add(t, store, browseMovies...)
	today := catalog.HitDayOf(time.Now())
	ctx := context.Background()
	if err := store.AddHits(ctx, today-40, []catalog.HitCount{{ID: 4, N: 9}}); err != nil {
		t.Fatal(err)
	}
	if err := store.AddHits(ctx, today, []catalog.HitCount{{ID: 1, N: 2}, {ID: 3, N: 2}}); err != nil {
		t.Fatal(err)
	}
	h := movietest.Service(t, store, nil)
	drama := typeIDOf(t, h, "Drama")
	period := []int64{3, 1, 5, 4, 2}
	tests := []struct {
		query string
		want  []int64
	}{
		{"by=hits", []int64{4, 3, 1, 5, 2}},
		{"by=hits_day", period},
		{"by=hits_week", period},
		{"by=hits_month", period},
		{"by=hits_day&sort_direction=asc", period},
		{"by=hits&pagesize=2&pg=2", []int64{1, 5}},
		{"by=hits_month&pagesize=2&pg=3", []int64{2}},
		{fmt.Sprintf("by=hits_day&t=%d", drama), []int64{3, 1, 2}},
		{fParam(`{"by":"hits","area":"TH"}`), []int64{4, 3, 1, 5}},
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
	movietest.CheckError(t, movietest.Do(t, h, http.MethodGet, movietest.VodPath+"?by=hits_year"), http.StatusBadRequest, "by must be one of")
}
