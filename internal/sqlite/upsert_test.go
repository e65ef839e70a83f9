package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
	"catalog/internal/storetest"
)

// TestUpsertMoviesBatchIsOneByOne checks that a batch, whatever keys it
// mixes, leaves the store exactly as upserting its movies one at a time
// does: UpsertMovies writes runs of id_code-keyed movies in bulk, which
// must not change which movie a key finds or which id a new movie gets.
// A batch of one takes the one-at-a-time path, so the reference store is
// written by the other code.
func TestUpsertMoviesBatchIsOneByOne(t *testing.T) {
	ctx := context.Background()
	base := time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC)
	movie := func(t *testing.T, i int, name, idCode string, id int64) catalog.Movie {
		t.Helper()
		m := catalog.Movie{ID: id, Name: name, IDCode: idCode, Year: "2020", Synopsis: fmt.Sprintf("Story %d.", i)}
		m.Lists[0] = catalog.NewList([]string{"Drama", fmt.Sprintf("Tag %d", i%3)})
		if err := m.Normalize(); err != nil {
			t.Fatalf("Normalize %q: %v", name, err)
		}
		m.UpdatedAt = base.Add(time.Duration(i) * time.Minute)
		return m
	}
	stored := func(t *testing.T) []catalog.Movie {
		t.Helper()
		return []catalog.Movie{
			movie(t, 0, "Stored Code", "S-1", 0),
			movie(t, 1, "Stored Same", "S-2", 0),
			movie(t, 2, "Stored Slug Only", "", 0),
			movie(t, 3, "Stored At Forty", "S-40", 40),
			movie(t, 4, "Stored Twin A", "TWIN", 0),
			movie(t, 5, "Stored Twin B", "TWIN", 60), // by id, so two rows share TWIN; lookups find the lower id
		}
	}
	batch := func(t *testing.T) []catalog.Movie {
		t.Helper()
		var b []catalog.Movie
		add := func(name, idCode string, id int64) {
			b = append(b, movie(t, 100+len(b), name, idCode, id))
		}
		add("New One", "N-1", 0)
		add("Stored Code Renamed", "S-1", 0)
		b = append(b, stored(t)[1])    // unchanged: keeps its time
		add("New One Again", "N-1", 0) // same id_code later in the batch
		add("Twin Changed", "TWIN", 0)
		for i := range 120 { // more than one bulk INSERT
			add(fmt.Sprintf("Bulk %d", i), fmt.Sprintf("B-%03d", i), 0)
		}
		add("Explicit Ninety", "E-90", 90)
		add("After Explicit", "N-2", 0)
		add("Stored Slug Only", "", 0)   // keyed by slug, updates
		add("Brand New Slug", "", 0)     // keyed by slug, inserts
		add("Forty Recoded", "R-40", 40) // by id: changes the row's id_code
		add("Recoded Again", "R-40", 0)  // so this one finds row 40
		add("Back To Forty", "S-40", 0)  // and this one is new
		add("New One Third", "N-1", 0)
		return b
	}

	oneByOne := openStore(t, filepath.Join(t.TempDir(), "one.db"))
	together := openStore(t, filepath.Join(t.TempDir(), "batch.db"))
	for _, s := range []interface {
		UpsertMovies(context.Context, []catalog.Movie) error
	}{oneByOne, together} {
		for _, m := range stored(t) {
			if err := s.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
				t.Fatalf("UpsertMovies stored: %v", err)
			}
		}
	}

	want := batch(t)
	for i := range want {
		if err := oneByOne.UpsertMovies(ctx, want[i:i+1]); err != nil {
			t.Fatalf("UpsertMovies one by one, movie %d: %v", i, err)
		}
	}
	got := batch(t)
	if err := together.UpsertMovies(ctx, got); err != nil {
		t.Fatalf("UpsertMovies batch: %v", err)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("movie %d written back:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}

	all := func(s interface {
		EachMovie(context.Context, func(*catalog.Movie) error) error
	}) []catalog.Movie {
		t.Helper()
		var ms []catalog.Movie
		if err := s.EachMovie(ctx, func(m *catalog.Movie) error { ms = append(ms, *m); return nil }); err != nil {
			t.Fatalf("EachMovie: %v", err)
		}
		return ms
	}
	wantAll, gotAll := all(oneByOne), all(together)
	if len(gotAll) != len(wantAll) {
		t.Fatalf("stored movies: got %d, want %d", len(gotAll), len(wantAll))
	}
	for i := range wantAll {
		if !reflect.DeepEqual(gotAll[i], wantAll[i]) {
			t.Fatalf("stored movie %d:\n got %+v\nwant %+v", i, gotAll[i], wantAll[i])
		}
	}
	sameSearchDocs(t, together, oneByOne, catalog.SearchMovies)

	// The triggers count writes per row, so both saw as many.
	sameDataVersion(t, together, oneByOne)

	// The next id SQLite assigns follows the bulk-assigned ones.
	wantNext := []catalog.Movie{movie(t, 999, "Next Assigned", "", 0)}
	gotNext := []catalog.Movie{wantNext[0]}
	if err := oneByOne.UpsertMovies(ctx, wantNext); err != nil {
		t.Fatalf("UpsertMovies next: %v", err)
	}
	if err := together.UpsertMovies(ctx, gotNext); err != nil {
		t.Fatalf("UpsertMovies next: %v", err)
	}
	if gotNext[0].ID != wantNext[0].ID {
		t.Fatalf("next assigned id: got %d, want %d", gotNext[0].ID, wantNext[0].ID)
	}
}

// TestImportClipsBatchIsOneByOne checks the same for ImportClips, which
// writes runs of clips without an ID in bulk.
func TestImportClipsBatchIsOneByOne(t *testing.T) {
	ctx := context.Background()
	base := time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC)
	clip := func(i int, id int64) catalog.Clip {
		platforms := []string{"", "JAV", "Thai"}
		return catalog.Clip{ID: id, Title: fmt.Sprintf("Clip %d", i), IframeURL: "https://example.com/v",
			Platform: platforms[i%len(platforms)], CreatedAt: base.Add(time.Duration(i) * time.Minute)}
	}
	batch := func() []catalog.Clip {
		var b []catalog.Clip
		add := func(id int64) { b = append(b, clip(len(b), id)) }
		for range 120 { // more than one bulk INSERT
			add(0)
		}
		add(500) // a new explicit id: the next assigned ones follow it
		add(0)
		add(0)
		add(2) // replaces a stored clip
		add(0)
		add(130) // replaces a clip of this batch
		return b
	}
	oneByOne := openStore(t, filepath.Join(t.TempDir(), "one.db"))
	together := openStore(t, filepath.Join(t.TempDir(), "batch.db"))
	for _, s := range []*sqlite.Store{oneByOne, together} {
		if err := s.ImportClips(ctx, []catalog.Clip{clip(900, 0), clip(901, 0), clip(902, 0)}); err != nil {
			t.Fatalf("ImportClips stored: %v", err)
		}
	}
	want := batch()
	for i := range want {
		if err := oneByOne.ImportClips(ctx, want[i:i+1]); err != nil {
			t.Fatalf("ImportClips one by one, clip %d: %v", i, err)
		}
	}
	got := batch()
	if err := together.ImportClips(ctx, got); err != nil {
		t.Fatalf("ImportClips batch: %v", err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("clip %d written back:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	for _, f := range []catalog.ClipFilter{
		{Paging: catalog.Paging{Page: 1, Limit: 500}},
		{Platform: "JAV", Paging: catalog.Paging{Page: 1, Limit: 500}},
		{Terms: catalog.SearchTerms("clip 1"), Paging: catalog.Paging{Page: 1, Limit: 500}},
	} {
		wantClips, wantTotal := storetest.Clips(t, oneByOne, f)
		gotClips, gotTotal := storetest.Clips(t, together, f)
		if gotTotal != wantTotal || len(gotClips) != len(wantClips) {
			t.Fatalf("clip list %+v: got %d clips, total %d; want %d, %d", f, len(gotClips), gotTotal, len(wantClips), wantTotal)
		}
		for i := range wantClips {
			if gotClips[i] != wantClips[i] {
				t.Fatalf("clip list %+v clip %d:\n got %+v\nwant %+v", f, i, gotClips[i], wantClips[i])
			}
		}
	}
	sameSearchDocs(t, together, oneByOne, catalog.SearchClips)
	sameDataVersion(t, together, oneByOne)
}

// sameSearchDocs checks that got feeds the search index what want does.
func sameSearchDocs(tb testing.TB, got, want *sqlite.Store, kind catalog.SearchKind) {
	tb.Helper()
	docs := func(s *sqlite.Store) []catalog.SearchDoc {
		var out []catalog.SearchDoc
		if _, err := s.SearchDocs(context.Background(), kind, func(d catalog.SearchDoc) { out = append(out, d) }); err != nil {
			tb.Fatal(err)
		}
		return out
	}
	if g, w := docs(got), docs(want); !reflect.DeepEqual(g, w) {
		tb.Fatalf("%s search documents:\n got %+v\nwant %+v", kind, g, w)
	}
}

func sameDataVersion(tb testing.TB, got, want *sqlite.Store) {
	tb.Helper()
	ctx := context.Background()
	wantVersion, err := want.DataVersion(ctx)
	if err != nil {
		tb.Fatalf("DataVersion: %v", err)
	}
	gotVersion, err := got.DataVersion(ctx)
	if err != nil {
		tb.Fatalf("DataVersion: %v", err)
	}
	if gotVersion != wantVersion {
		tb.Fatalf("DataVersion: got %d, want %d", gotVersion, wantVersion)
	}
}
