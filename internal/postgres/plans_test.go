package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
)

// The keyed reads every list page makes (the index gives the ids) keep
// the server's cached generic plan instead of being planned again on
// each execution.
func TestKeyedReadsKeepTheirCachedPlans(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	// One connection, so the statistics read below are the ones of the
	// connection that ran the statements.
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportClips(ctx, benchClips(500)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertMovies(ctx, benchMovies(50)); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		ids := make([]int64, 20) // a page of the whole list, then of a search
		for j := range ids {
			ids[j] = int64(400 - 20*i - j)
		}
		if _, err := s.ClipsByID(ctx, ids); err != nil {
			t.Fatal(err)
		}
		for j := range ids {
			ids[j] = int64(500 - 3*j - i)
		}
		if _, err := s.ClipsByID(ctx, ids); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetClip(ctx, int64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	for _, statement := range []string{"WHERE id = ANY($1) ORDER BY id DESC", "WHERE id BETWEEN $1 AND $2 ORDER BY id DESC LIMIT", "FROM clips WHERE id = $1"} {
		generic, custom, err := postgres.PreparedPlans(ctx, s, statement)
		if err != nil {
			t.Fatal(err)
		}
		if generic+custom == 0 {
			t.Fatalf("%q: no prepared statement ran", statement)
		}
		if generic == 0 {
			t.Errorf("%q: planned again on every execution (%d custom plans, no generic one)", statement, custom)
		}
	}
}

// A collection's questions before each page are key lookups, whatever
// the statistics say: here the tables were analyzed empty, as at a
// first run's start, and then hold 20,000 links of the source. A plan
// that reads all of the source's links, or every movie, costs more on
// every page of a run.
func TestCollectLookupsReadByKey(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`ANALYZE movies`, `ANALYZE source_movies`,
		`INSERT INTO movies (id, name, name_fold, title_key, year, updated_at)
			SELECT g, 'Movie ' || g, 'movie ' || g, 'movie' || g, '2020', now() FROM generate_series(1, 20000) g`,
		`INSERT INTO source_movies (source, vod_id, movie_id, joined) SELECT 'src', g, g, false FROM generate_series(1, 20000) g`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	ids, keys := make([]int64, 400), make([]string, 400)
	for i := range ids {
		ids[i] = int64(20200 - i) // half of them stored
		keys[i] = fmt.Sprintf("movie%d", ids[i])
	}
	for _, tc := range []struct {
		name string
		sql  string
		args []any
	}{
		{"links", postgres.LinksSQL, []any{"src", ids}},
		{"title keys", postgres.TitleKeysSQL, []any{keys}},
	} {
		plan := explain(t, conn, tc.sql, tc.args...)
		for _, whole := range []string{"Seq Scan on source_movies", "Seq Scan on movies", "Index Cond: (source = "} {
			if strings.Contains(plan, whole) {
				t.Errorf("%s: the plan reads a whole table or all of a source's links (%s):\n%s", tc.name, whole, plan)
			}
		}
	}
}

// explain is the plan the server makes for sql with args, as a prepared
// statement's execution gets it.
func explain(t *testing.T, conn *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	rows, err := conn.Query(context.Background(), "EXPLAIN "+sql, append([]any{pgx.QueryExecModeCacheDescribe}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// A search index's catch-up after a bulk import reads the log by its
// (kind, version) index and the few changed records by key: here the
// statistics were taken after a first import of 20,000 clips and as
// many movies, before a second one and a few edits. Every list waits
// for the catch-up beside edits, so no statement of it may scan a
// whole table, whatever the planner estimates of the log.
func TestSearchChangesReadByKey(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	s, err := postgres.Open(ctx, dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(q string) {
		t.Helper()
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	// Statistics of the first import only (autovacuum off, so that they
	// stay so), as when imports outrun autovacuum.
	exec(`ALTER TABLE search_log SET (autovacuum_enabled = false)`)
	if err := s.ImportClips(ctx, benchClips(20000)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertMovies(ctx, benchMovies(20000)); err != nil {
		t.Fatal(err)
	}
	exec(`ANALYZE clips`)
	exec(`ANALYZE movies`)
	exec(`ANALYZE search_log`)
	if err := s.ImportClips(ctx, benchClips(20000)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertMovies(ctx, benchMovies(20000)); err != nil {
		t.Fatal(err)
	}
	exec(`UPDATE clips SET title = title || '!' WHERE id IN (5, 500, 5000)`)
	exec(`UPDATE movies SET name = name || '!' WHERE id IN (5, 500, 5000)`)
	var clipVersion, movieVersion int64
	if err := conn.QueryRow(ctx, `SELECT clip_version, movie_version FROM meta`).Scan(&clipVersion, &movieVersion); err != nil {
		t.Fatal(err)
	}
	ids := []int64{5, 500, 5000}
	for _, tc := range []struct {
		name, sql string
		args      []any
	}{
		{"changed clips", postgres.ChangedWholeSQL, []any{1, clipVersion - 1, 10001}},
		{"changed movies", postgres.ChangedWholeSQL, []any{2, movieVersion - 1, 10001}},
		{"hit movies", postgres.ChangedHitsSQL, []any{2, movieVersion - 1}},
		{"clip documents", postgres.ClipDocsSQL, []any{ids}},
		{"movie documents", postgres.MovieDocsSQL, []any{ids}},
		{"movie counts", postgres.HitsOfIDsSQL, []any{ids}},
	} {
		plan := explain(t, conn, tc.sql, tc.args...)
		for _, whole := range []string{"Seq Scan on clips", "Seq Scan on movies", "Seq Scan on search_log", "Hash Join"} {
			if strings.Contains(plan, whole) {
				t.Errorf("%s: the plan reads a whole table (%s):\n%s", tc.name, whole, plan)
			}
		}
	}
	u, err := s.SearchChanges(ctx, 1, clipVersion-1, 100)
	if err != nil || len(u.Docs) != 3 || len(u.Gone) != 0 {
		t.Fatalf("SearchChanges: %d docs, %d gone (%v), want the 3 edited clips", len(u.Docs), len(u.Gone), err)
	}
}

// An upsert's import table is made once per connection and emptied by
// each commit: the transactions that follow write no system catalog
// rows for it, and their upsert stays one prepared statement.
func TestImportTableKeptPerConnection(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.DSN(t), postgres.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var first uint32
	for i := range 3 {
		if err := s.UpsertMovies(ctx, benchMovies(10)); err != nil {
			t.Fatal(err)
		}
		if err := s.ImportClips(ctx, benchClips(10)); err != nil {
			t.Fatal(err)
		}
		oid, rows, err := postgres.ImportTable(ctx, s, "movie_import")
		if err != nil {
			t.Fatal(err)
		}
		if oid == 0 || rows != 0 {
			t.Fatalf("after upsert %d: movie_import oid %d with %d rows, want the table kept and empty", i+1, oid, rows)
		}
		if i == 0 {
			first = oid
		} else if oid != first {
			t.Fatalf("after upsert %d: movie_import oid %d, want %d (made once)", i+1, oid, first)
		}
		if oid, rows, err := postgres.ImportTable(ctx, s, "clip_import"); err != nil || oid == 0 || rows != 0 {
			t.Fatalf("after import %d: clip_import oid %d with %d rows (%v), want the table kept and empty", i+1, oid, rows, err)
		}
	}
	if n, err := s.CountMovies(ctx); err != nil || n != 10 {
		t.Errorf("movies: got %d (%v), want 10 (the same ten upserted three times)", n, err)
	}
}
