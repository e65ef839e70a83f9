package postgres_test

import (
	"context"
	"testing"

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
	for _, statement := range []string{"WHERE id = ANY($1) ORDER BY id DESC", "FROM clips WHERE id = $1"} {
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
