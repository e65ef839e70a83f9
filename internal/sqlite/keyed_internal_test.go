package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"catalog/internal/catalog"
)

// A keyed read gives exactly the rows of its ids, highest first,
// whatever their count and spread (a range scan drops the rows between
// them; an IN list is padded to a bucket by repeating the last id);
// spread pages of one bucket share one prepared statement; and once the
// store keeps its most statements a new column set is still answered,
// unprepared.
func TestKeyedReadsShareStatements(t *testing.T) {
	ctx := context.Background()
	s := migratedStore(t)
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
	// ids are n ids step apart from 30 down, highest first, as the index
	// gives them: step 3 spreads them (an IN list), step 1 or 2 fills at
	// least half their range (a range scan, rows between them dropped).
	ids := func(n, step int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(30 - step*i)
		}
		return out
	}
	read := func(asked, want []int64) {
		t.Helper()
		got, err := s.MoviesByID(ctx, asked, fields)
		if err != nil {
			t.Fatal(err)
		}
		gotIDs := make([]int64, len(got))
		for i, m := range got {
			gotIDs[i] = m.ID
		}
		if !slices.Equal(gotIDs, want) {
			t.Fatalf("MoviesByID(%v) = %v, want %v", asked, gotIDs, want)
		}
	}
	for _, step := range []int{1, 2, 3} {
		for _, n := range []int{1, 2, 9, 10} {
			read(ids(n, step), ids(n, step))
		}
	}
	read([]int64{7, 5, 5}, []int64{7, 5})    // a repeated id, in range
	read([]int64{30, 9, 30}, []int64{30, 9}) // a repeated id, spread
	read([]int64{31, 30, 0}, []int64{30})    // ids no row has

	read(ids(4, 3), ids(4, 3))
	kept := s.kept.Load()
	for _, n := range []int{5, 7, 10} { // the same bucket of ten
		read(ids(n, 3), ids(n, 3))
	}
	if got := s.kept.Load(); got != kept {
		t.Fatalf("statements kept after a spread page of 4 ids: %d, then %d after more of the same bucket", kept, got)
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

// migratedStore opens a store on a new file in t's temporary folder,
// migrated, closed when t ends.
func migratedStore(t *testing.T) *Store {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}
