package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"catalog/internal/catalog"
)

// A keyed read gives exactly the rows of its ids whatever their count
// (the IN list is padded to a bucket by repeating the last id), pages
// of one bucket share one prepared statement, and once the store keeps
// its most statements a new column set is still answered, unprepared.
func TestKeyedReadsShareStatements(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	movies := make([]catalog.Movie, 30)
	for i := range movies {
		movies[i] = catalog.Movie{Name: "m", Slug: "m" + strconv.Itoa(i)}
	}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	fields, err := catalog.ParseFields("id,title", false)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(n int) []int64 { // n ids, highest first, as the index gives them
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(30 - 2*i%30)
		}
		slices.Sort(out)
		slices.Reverse(out)
		return slices.Compact(out)
	}
	read := func(want []int64) {
		t.Helper()
		got, err := s.MoviesByID(ctx, want, fields)
		if err != nil {
			t.Fatal(err)
		}
		gotIDs := make([]int64, len(got))
		for i, m := range got {
			gotIDs[i] = m.ID
		}
		if !slices.Equal(gotIDs, want) {
			t.Fatalf("MoviesByID(%v) = %v", want, gotIDs)
		}
	}
	read(ids(11))
	kept := s.kept.Load()
	for _, n := range []int{13, 15, 20} { // the same bucket of ten
		read(ids(n))
	}
	if got := s.kept.Load(); got != kept {
		t.Fatalf("statements kept after pages of 11-15 ids: %d, then %d after more of the same bucket", kept, got)
	}
	read(ids(1))
	if got := s.kept.Load(); got != kept+1 {
		t.Fatalf("statements kept after a page of one id: %d, want %d", got, kept+1)
	}

	s.kept.Store(256)
	other, err := catalog.ParseFields("id,title,year", false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.MoviesByID(ctx, []int64{7, 3}, other)
	if err != nil || len(got) != 2 || got[0].ID != 7 || got[1].ID != 3 {
		t.Fatalf("a new column set past the bound: %v, %v", got, err)
	}
	if n := s.kept.Load(); n != 256 {
		t.Fatalf("statements kept past the bound: %d, want 256", n)
	}
}
