package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	kept := s.keyed.kept()
	for _, n := range []int{5, 7, 10} { // the same bucket of ten
		read(ids(n, 3), ids(n, 3))
	}
	if got := s.keyed.kept(); got != kept {
		t.Fatalf("statements kept after a spread page of 4 ids: %d, then %d after more of the same bucket", kept, got)
	}

	s.keyed.limit = kept
	other, err := catalog.ParseFields("id,title,year", false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.MoviesByID(ctx, []int64{7, 3}, other)
	if err != nil || len(got) != 2 || got[0].ID != 7 || got[1].ID != 3 {
		t.Fatalf("a new column set past the bound: %v, %v", got, err)
	}
	if n := s.keyed.kept(); n != kept {
		t.Fatalf("statements kept past the bound: %d, want %d", n, kept)
	}
}

// kept counts the statements kept prepared on the idle connections.
func (k *keyedConns) kept() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := 0
	for _, c := range k.idle {
		n += len(c.stmts)
	}
	return n
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

// A keyed connection scans what database/sql would for the
// destinations the field tables use, refuses the others with an error,
// and copies every string out of SQLite's buffers (which the next step
// reuses).
func TestKeyedRowsScan(t *testing.T) {
	s := migratedStore(t)
	var (
		str, str2 string
		i64       int64
		n         int
		ns        sql.NullString
		nf        sql.NullFloat64
		f         float64
	)
	tests := []struct {
		name    string
		query   string
		args    []int64
		dest    []any
		wantErr string
		check   func() bool
	}{
		{"every kind", `SELECT 'héllo', 42, ?, x'6869'`, []int64{-7}, []any{&str, &i64, &n, &str2}, "",
			func() bool { return str == "héllo" && i64 == 42 && n == -7 && str2 == "hi" }},
		{"NULL into a Scanner", `SELECT NULL, 2.5`, nil, []any{&ns, &nf}, "",
			func() bool { return !ns.Valid && nf.Valid && nf.Float64 == 2.5 }},
		{"an integer into a string", `SELECT 12`, nil, []any{&str}, "", func() bool { return str == "12" }},
		{"NULL into a string", `SELECT NULL`, nil, []any{&str}, "is NULL", nil},
		{"text into an integer", `SELECT 'x'`, nil, []any{&i64}, "not an integer", nil},
		{"text into an int", `SELECT 'x'`, nil, []any{&n}, "not an integer", nil},
		{"an unsupported destination", `SELECT 1.5`, nil, []any{&f}, "cannot scan", nil},
		{"too few destinations", `SELECT 1, 2`, nil, []any{&i64}, "1 destinations for 2 columns", nil},
		{"too few arguments", `SELECT ?, ?`, []int64{1}, []any{&i64, &n}, "1 arguments for 2 parameters", nil},
		{"a statement SQLite refuses", `SELECT FROM`, nil, []any{&i64}, "syntax error", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.keyed.read(tt.query, tt.args, func(r *keyedRows) error { return r.Scan(tt.dest...) })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !tt.check() {
				t.Fatalf("err %v, scanned %q %d %d %q %v %v", err, str, i64, n, str2, ns, nf)
			}
		})
	}

	var got []string
	err := s.keyed.read(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 200)
		SELECT 'row ' || x || printf('%.*c', x, '.') FROM c`, nil, func(r *keyedRows) error {
		var v string
		err := r.Scan(&v)
		got = append(got, v)
		return err
	})
	if err != nil || len(got) != 200 {
		t.Fatalf("%d rows, %v", len(got), err)
	}
	for i, v := range got {
		if want := "row " + strconv.Itoa(i+1) + strings.Repeat(".", i+1); v != want {
			t.Fatalf("row %d read back as %q after the later steps, want %q", i+1, v, want)
		}
	}
}

// A keyed read after Close is an error, not a crash, and a connection
// in use at Close is closed when it is given back.
func TestKeyedReadsAfterClose(t *testing.T) {
	ctx := context.Background()
	s := migratedStore(t)
	c := catalog.Clip{Title: "closing", IframeURL: "https://example.com/v/1"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	inUse, err := s.keyed.take()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClipsByID(ctx, []int64{c.ID}); err != nil || len(got) != 1 || got[0].Title != "closing" {
		t.Fatalf("before Close: %v, %v", got, err)
	}
	s.Close()
	if got, err := s.ClipsByID(ctx, []int64{c.ID}); err == nil {
		t.Fatalf("after Close: %v, want an error", got)
	}
	s.keyed.give(inUse)
	if inUse.stmts != nil || len(s.keyed.idle) != 0 {
		t.Fatalf("a connection given back after Close was kept: %d statements, %d idle", len(inUse.stmts), len(s.keyed.idle))
	}
}
