package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
)

// Text searches are planned with their values every time (a generic
// plan cannot tell a rare term from a common one), while the point reads
// and seeks that every request makes keep the server's cached generic
// plan instead of being planned again on each execution; and the search's
// setting does not leak into the statements that follow on the
// connection.
func TestSearchesPlannedWithValuesOthersCached(t *testing.T) {
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
	page := catalog.Paging{Page: 1, Limit: 20}
	for i := range 12 {
		terms := catalog.SearchTerms(fmt.Sprintf("number %d", i))
		if _, _, err := s.ListClips(ctx, catalog.ClipFilter{Terms: terms, Paging: page}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ListMovies(ctx, catalog.MovieFilter{Terms: terms, Paging: page}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ListVods(ctx, catalog.VodFilter{Terms: terms, Paging: page}); err != nil {
			t.Fatal(err)
		}
		ids := make([]int64, 20) // a page
		for j := range ids {
			ids[j] = int64(400 - 20*i - j)
		}
		if _, err := s.ClipsByID(ctx, ids); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetClip(ctx, int64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		statement string
		generic   bool
	}{
		{"title_fold LIKE", false},
		{"name_fold LIKE", false},
		{"WHERE id = ANY($1) ORDER BY id DESC", true},
		{"FROM clips WHERE id = $1", true},
	} {
		generic, custom, err := postgres.PreparedPlans(ctx, s, tc.statement)
		if err != nil {
			t.Fatal(err)
		}
		if generic+custom == 0 {
			t.Fatalf("%q: no prepared statement ran", tc.statement)
		}
		if tc.generic && generic == 0 {
			t.Errorf("%q: planned again on every execution (%d custom plans, no generic one)", tc.statement, custom)
		}
		if !tc.generic && generic > 0 {
			t.Errorf("%q: %d executions used a generic plan, want every one planned with its values", tc.statement, generic)
		}
	}
	if mode, err := postgres.PlanCacheMode(ctx, s); err != nil || mode != "auto" {
		t.Errorf("plan_cache_mode after the searches = %q, %v; want auto", mode, err)
	}
}

// countAndPage relies on a batch being one implicit transaction: when a
// statement in it fails, the SET before it is rolled back with it.
func TestFailedBatchUndoesItsSet(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.ServerDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	b := &pgx.Batch{}
	b.Queue(`SET plan_cache_mode = force_custom_plan`)
	b.Queue(`SELECT 1 / (SELECT count(*) FROM pg_class WHERE false)`)
	b.Queue(`RESET plan_cache_mode`)
	if err := conn.SendBatch(ctx, b).Close(); err == nil {
		t.Fatal("the batch did not fail")
	}
	var mode string
	if err := conn.QueryRow(ctx, `SHOW plan_cache_mode`).Scan(&mode); err != nil || mode != "auto" {
		t.Errorf("plan_cache_mode after the failed batch = %q, %v; want auto", mode, err)
	}
}
