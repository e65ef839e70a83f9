package storetest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runLinks checks the prober's queue and its findings (contract 13).
func runLinks(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	s := open(t)
	server := func(name, embed string) catalog.Server {
		return catalog.Server{Name: name, Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: embed}}}
	}
	movies := []catalog.Movie{
		{Name: "One", Slug: "one", Episodes: []catalog.Server{server("Main", "https://a.example/1"), server("src: Backup", "https://b.example/1")}},
		{Name: "Two", Slug: "two", Episodes: []catalog.Server{server("Main", "https://a.example/2")}},
		{Name: "Three", Slug: "three"},
	}
	for i := range movies {
		noErr(t, movies[i].Normalize(), "Normalize")
	}
	noErr(t, s.UpsertMovies(ctx, movies), "UpsertMovies")
	one, two, three := movies[0].ID, movies[1].ID, movies[2].ID
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	ids := func(cs []catalog.LinkCheck) []int64 {
		var out []int64
		for _, c := range cs {
			out = append(out, c.MovieID)
		}
		slices.Sort(out)
		return out
	}

	// Every new movie is due at once; a claim leases them.
	claimed, err := s.ClaimLinkChecks(ctx, now, 10*time.Minute, 10)
	noErr(t, err, "ClaimLinkChecks")
	if got, want := ids(claimed), []int64{one, two, three}; !slices.Equal(got, want) {
		t.Fatalf("first claim: got %v, want every movie %v", got, want)
	}
	for _, c := range claimed {
		if c.MovieID == one && (len(c.Episodes) != 2 || c.Episodes[1].Name != "src: Backup" || c.Health != nil) {
			t.Errorf("claimed movie one: got %+v, want its two servers and no health", c)
		}
	}
	if again, err := s.ClaimLinkChecks(ctx, now.Add(time.Minute), 10*time.Minute, 10); err != nil || len(again) != 0 {
		t.Fatalf("claim within the lease: got %v, %v; want none", ids(again), err)
	}

	// Saved findings are read with the movie and change the data version.
	v0, err := s.DataVersion(ctx)
	noErr(t, err, "DataVersion")
	health := []catalog.ServerHealth{
		{Server: "Main", Status: catalog.LinkOK, CheckedAt: now.Unix(), Next: 1},
		{Server: "src: Backup", Status: catalog.LinkDead, CheckedAt: now.Unix(), FailedSince: now.Add(-time.Hour).Unix(), Fails: 2, Problem: "answered 404 Not Found"},
	}
	noErr(t, s.SaveLinkChecks(ctx, []catalog.LinkResult{
		{MovieID: one, Health: health, Due: now.Add(24 * time.Hour)},
		{MovieID: two, Health: []catalog.ServerHealth{{Server: "Main", Status: catalog.LinkDead, CheckedAt: now.Unix(), Fails: 2}}, Due: now.Add(time.Hour)},
		{MovieID: three, Due: now.Add(24 * time.Hour)},
	}), "SaveLinkChecks")
	if v1, _ := s.DataVersion(ctx); v1 == v0 {
		t.Errorf("data version after saving link health: got %d, want a change", v1)
	}
	got, err := s.GetMovie(ctx, one)
	noErr(t, err, "GetMovie")
	if !reflect.DeepEqual(got.Health, health) {
		t.Errorf("GetMovie health: got %+v, want %+v", got.Health, health)
	}
	byID, err := s.MoviesByID(ctx, []int64{one}, catalog.AllFields(true))
	noErr(t, err, "MoviesByID")
	if len(byID) != 1 || !reflect.DeepEqual(byID[0].Health, health) {
		t.Errorf("MoviesByID health: got %+v, want %+v", byID, health)
	}

	// An upsert of the same movie keeps what the prober found.
	same := movies[0]
	same.UpdatedAt = time.Time{}
	noErr(t, s.UpsertMovies(ctx, []catalog.Movie{same}), "UpsertMovies again")
	if got, _ := s.GetMovie(ctx, one); !reflect.DeepEqual(got.Health, health) {
		t.Errorf("health after an upsert: got %+v, want it kept", got.Health)
	}

	// Dead servers, by source then movie, and their counts.
	dead, err := s.DeadLinks(ctx, 10)
	noErr(t, err, "DeadLinks")
	if len(dead) != 2 || dead[0].MovieID != two || dead[0].Health.Server != "Main" || dead[1].MovieID != one ||
		dead[1].Health.Server != "src: Backup" || dead[1].MovieName != "One" || dead[1].Health.Problem != "answered 404 Not Found" {
		t.Errorf("DeadLinks: got %+v, want two's Main (no source) then one's src: Backup", dead)
	}
	counts, err := s.DeadLinkCounts(ctx)
	noErr(t, err, "DeadLinkCounts")
	if want := map[string]int64{"": 1, "src": 1}; !reflect.DeepEqual(counts, want) {
		t.Errorf("DeadLinkCounts: got %v, want %v", counts, want)
	}

	// Due in order: two (in an hour) before the others (a day).
	if c, _ := s.ClaimLinkChecks(ctx, now.Add(2*time.Hour), time.Minute, 10); !slices.Equal(ids(c), []int64{two}) {
		t.Errorf("claim after an hour: got %v, want [%d]", ids(c), two)
	}
	// A report puts a movie first, before those due longer.
	noErr(t, s.ReportLink(ctx, three), "ReportLink")
	wantCode(t, s.ReportLink(ctx, 999999), catalog.ENOTFOUND)
	if c, _ := s.ClaimLinkChecks(ctx, now.Add(48*time.Hour), time.Minute, 1); !slices.Equal(ids(c), []int64{three}) {
		t.Errorf("claim of one after a report: got %v, want the reported [%d]", ids(c), three)
	}

	// Changed episodes are due at once; a deleted movie leaves the queue
	// and the dead links.
	edit := movies[1]
	edit.UpdatedAt = time.Time{}
	edit.Episodes = []catalog.Server{server("Main", "https://a.example/2-new")}
	noErr(t, s.UpdateMovie(ctx, &edit), "UpdateMovie")
	noErr(t, s.DeleteMovie(ctx, one), "DeleteMovie")
	if c, _ := s.ClaimLinkChecks(ctx, now.Add(3*time.Hour), time.Minute, 10); !slices.Equal(ids(c), []int64{two}) {
		t.Errorf("claim after an edit and a delete: got %v, want the edited [%d]", ids(c), two)
	}
	if dead, _ := s.DeadLinks(ctx, 10); len(dead) != 1 || dead[0].MovieID != two {
		t.Errorf("DeadLinks after deleting one: got %+v, want two's only", dead)
	}
}
