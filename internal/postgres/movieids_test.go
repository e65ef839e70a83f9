package postgres_test

import (
	"context"
	"slices"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/postgres/pgtest"
)

// ListMovies by ids gives the exact total and the page, highest id
// first, whether or not all the ids fit on the page (the index's search
// pages fit; an ids filter from a client may not).
func TestListMoviesByIDs(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, pgtest.DSN(t))
	movies := benchMovies(30)
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	id := func(i int) int64 { return movies[i].ID }
	for _, tc := range []struct {
		name      string
		ids       []int64
		page      catalog.Paging
		want      []int64
		wantTotal int64
	}{
		{"all on the page", []int64{id(3), id(1), id(2)}, catalog.Paging{Page: 1, Limit: 3}, []int64{id(3), id(2), id(1)}, 3},
		{"unknown ids not counted", []int64{id(5), 1 << 40, id(4), 1 << 41}, catalog.Paging{Page: 1, Limit: 20}, []int64{id(5), id(4)}, 2},
		{"repeated ids counted once", []int64{id(7), id(7), id(6)}, catalog.Paging{Page: 1, Limit: 20}, []int64{id(7), id(6)}, 2},
		{"more ids than the page", []int64{id(1), id(2), id(3), id(4)}, catalog.Paging{Page: 1, Limit: 2}, []int64{id(4), id(3)}, 4},
		{"second page", []int64{id(1), id(2), id(3)}, catalog.Paging{Page: 2, Limit: 2}, []int64{id(1)}, 3},
		{"none known", []int64{1 << 40}, catalog.Paging{Page: 1, Limit: 20}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, total, err := s.ListMovies(ctx, catalog.MovieFilter{IDs: tc.ids, Paging: tc.page})
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, m := range page {
				got = append(got, m.ID)
			}
			if !slices.Equal(got, tc.want) || total != tc.wantTotal {
				t.Errorf("got %v (total %d), want %v (total %d)", got, total, tc.want, tc.wantTotal)
			}
			if page == nil {
				t.Error("page is nil, want an empty slice (encodes as [])")
			}
		})
	}
}
