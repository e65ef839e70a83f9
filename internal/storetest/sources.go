package storetest

import (
	"context"
	"reflect"
	"strconv"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runSources checks the sources, their runs and the identity rule of
// collected movies (contract 10).
func runSources(t *testing.T, open func(t *testing.T) catalog.Store) {
	t.Run("Sources", func(t *testing.T) { runSourceList(t, open(t)) })
	t.Run("SameRecordUpdatesInPlace", func(t *testing.T) { runCollectAgain(t, open(t)) })
	t.Run("JoinByNameAndYear", func(t *testing.T) { runCollectJoin(t, open(t)) })
	t.Run("OwnerKeepsJoinedServers", func(t *testing.T) { runCollectOwner(t, open(t)) })
	t.Run("DeletedMovieComesBack", func(t *testing.T) { runCollectDeleted(t, open(t)) })
	t.Run("JoinOverTheLimit", func(t *testing.T) { runCollectLimit(t, open(t)) })
	t.Run("KeysOfOthersNotTaken", func(t *testing.T) { runCollectKeys(t, open(t)) })
	t.Run("HandMadeServersStay", func(t *testing.T) { runCollectHandMade(t, open(t)) })
	t.Run("UnchangedNotWritten", func(t *testing.T) { runCollectUnchanged(t, open(t)) })
	runMerge(t, open)
}

// runCollectUnchanged: a record whose content hash equals the one
// stored the last time its source wrote it is not written (no write, no
// updated_at: the data version stays); a changed hash, or none, writes
// it, and the hash it wrote is the one compared next time.
func runCollectUnchanged(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	hashed := func(vodID int64, synopsis, hash string) catalog.CollectedMovie {
		cm := collectedMovie(t, vodID, "Tide "+strconv.FormatInt(vodID, 10), "2021", synopsis, playServer("m3u8", "https://p.example/t", 1))
		cm.Hash = hash
		return cm
	}
	first := collectPage(t, s, "alpha", hashed(1, "one", "h1"), hashed(2, "two", "h2"), hashed(3, "three", ""))
	for i, r := range first {
		if r.Unchanged || r.Movie.ID <= 0 {
			t.Fatalf("first run, record %d: got %+v, want written", i, r)
		}
	}
	stamp := getMovie(t, s, first[0].Movie.ID).UpdatedAt
	version, err := s.DataVersion(ctx)
	noErr(t, err, "DataVersion")
	again := collectPage(t, s, "alpha", hashed(1, "one", "h1"), hashed(2, "two", "h2"))
	for i, r := range again {
		if !r.Unchanged || r.Movie.ID != first[i].Movie.ID {
			t.Errorf("same hash, record %d: got unchanged %v, movie %d; want unchanged, movie %d", i, r.Unchanged, r.Movie.ID, first[i].Movie.ID)
		}
	}
	if now, err := s.DataVersion(ctx); err != nil || now != version {
		t.Errorf("data version after unchanged records: got %d, %v; want %d (nothing written)", now, err, version)
	}
	if got := getMovie(t, s, first[0].Movie.ID).UpdatedAt; !got.Equal(stamp) {
		t.Errorf("updated_at of an unchanged record: got %v, want %v", got, stamp)
	}
	// A new hash writes (and is stored); no hash always writes.
	third := collectPage(t, s, "alpha", hashed(1, "one, revised", "h1b"), hashed(3, "three", ""))
	for i, r := range third {
		if r.Unchanged {
			t.Errorf("changed or unknown hash, record %d: skipped, want written", i)
		}
	}
	if m := getMovie(t, s, first[0].Movie.ID); m.Synopsis != "one, revised" {
		t.Errorf("changed record: synopsis %q, want the new one", m.Synopsis)
	}
	if r := collectPage(t, s, "alpha", hashed(1, "one, revised", "h1b")); !r[0].Unchanged {
		t.Errorf("the revised record sent again: written, want unchanged (its new hash stored)")
	}
	// Another source sending the same vod_id and hash is another record.
	if r := collectPage(t, s, "beta", hashed(1, "one", "h1")); r[0].Unchanged {
		t.Errorf("another source's record with the same hash: skipped, want written")
	}
}

func runSourceList(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	_, err := s.SourceByName(ctx, "alpha")
	wantCode(t, err, catalog.ENOTFOUND)
	before := nowSecond()
	a := catalog.Source{Name: "alpha", URL: "https://a.example/api.php/provide/vod/", Every: time.Hour, Hours: 24}
	noErr(t, s.AddSource(ctx, &a), "AddSource alpha")
	wantTimeBetween(t, "CreatedAt", a.CreatedAt, before, nowSecond())
	wantCode(t, s.AddSource(ctx, &catalog.Source{Name: "alpha", URL: "https://other.example/"}), catalog.ECONFLICT)
	b := catalog.Source{Name: "Beta.tv:8080", URL: "http://b.example:8080/vod/at/xml"}
	noErr(t, s.AddSource(ctx, &b), "AddSource Beta")

	list, err := s.ListSources(ctx)
	noErr(t, err, "ListSources")
	if len(list) != 2 || list[0].Name != "Beta.tv:8080" || list[1].Name != "alpha" {
		t.Fatalf("ListSources: got %+v, want Beta.tv:8080 then alpha (by name)", list)
	}
	if got := list[1]; got.URL != a.URL || got.Every != time.Hour || got.Hours != 24 || !got.LastRun.Started.IsZero() || !got.LastSuccess.IsZero() {
		t.Errorf("alpha: got %+v, want its URL, 1h, 24 hours, no run", got)
	}

	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	ok := catalog.SourceRun{Source: "alpha", Started: t0, Finished: t0.Add(time.Minute), Pages: 3, Read: 60, Written: 58, Rejected: 2}
	failed := catalog.SourceRun{Source: "alpha", Started: t0.Add(time.Hour), Finished: t0.Add(time.Hour + time.Second), Pages: 1, Read: 20, Written: 20, Err: "page 2: answered 502 Bad Gateway"}
	other := catalog.SourceRun{Source: "gamma", Started: t0, Finished: t0, Err: "page 1: refused"}
	for _, r := range []catalog.SourceRun{ok, failed, other} {
		noErr(t, s.RecordRun(ctx, r), "RecordRun")
	}
	got, err := s.SourceByName(ctx, "alpha")
	noErr(t, err, "SourceByName")
	if !reflect.DeepEqual(got.LastRun, failed) || !got.LastSuccess.Equal(ok.Finished) {
		t.Errorf("alpha after runs: got last run %+v, last success %v; want %+v and %v", got.LastRun, got.LastSuccess, failed, ok.Finished)
	}
	if got.RunHours() != 24 {
		t.Errorf("RunHours after a whole run: got %d, want 24", got.RunHours())
	}
	if b, _ := s.SourceByName(ctx, "Beta.tv:8080"); b.RunHours() != 0 || !b.LastRun.Started.IsZero() {
		t.Errorf("Beta without runs: got %+v, want no run and RunHours 0", b)
	}

	noErr(t, s.RemoveSource(ctx, "alpha"), "RemoveSource")
	wantCode(t, s.RemoveSource(ctx, "alpha"), catalog.ENOTFOUND)
	_, err = s.SourceByName(ctx, "alpha")
	wantCode(t, err, catalog.ENOTFOUND)
}

// server is one server of n episodes, embed links under base.
func playServer(name, base string, n int) catalog.Server {
	s := catalog.Server{Name: name}
	for i := 1; i <= n; i++ {
		s.Episodes = append(s.Episodes, catalog.Episode{Name: "Ep " + strconv.Itoa(i), LinkEmbed: base + "/" + strconv.Itoa(i)})
	}
	return s
}

// collected is a normalised record of a source.
func collectedMovie(t *testing.T, vodID int64, name, year, synopsis string, servers ...catalog.Server) catalog.CollectedMovie {
	t.Helper()
	m := catalog.Movie{Name: name, Year: year, Synopsis: synopsis, Episodes: servers}
	noErr(t, m.Normalize(), "Normalize")
	return catalog.CollectedMovie{VodID: vodID, Movie: m}
}

func collectPage(t *testing.T, s catalog.Store, source string, page ...catalog.CollectedMovie) []catalog.CollectedMovie {
	t.Helper()
	noErr(t, s.CollectMovies(context.Background(), source, page), "CollectMovies "+source)
	return page
}

func wantServers(t *testing.T, what string, got []catalog.Server, want ...catalog.Server) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	for i := range want {
		for j := range want[i].Episodes {
			e := &want[i].Episodes[j]
			if e.Slug == "" {
				e.Slug = catalog.Slugify(e.Name)
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s servers:\n got %+v\nwant %+v", what, got, want)
	}
}

func wantMovieCount(t *testing.T, s catalog.Store, want int64) {
	t.Helper()
	n, err := s.CountMovies(context.Background())
	noErr(t, err, "CountMovies")
	if n != want {
		t.Fatalf("movies: got %d, want %d", n, want)
	}
}

func runCollectAgain(t *testing.T, s catalog.Store) {
	first := collectPage(t, s, "alpha",
		collectedMovie(t, 7, "Night Market", "2019", "v1", playServer("iframe", "https://p.example/nm", 2)),
		collectedMovie(t, 8, "Harbour", "2020", "h", playServer("m3u8", "https://p.example/h", 1)))
	id := first[0].Movie.ID
	if id <= 0 || first[1].Movie.ID <= 0 || first[1].Movie.ID == id {
		t.Fatalf("ids: got %d and %d, want two new movies", id, first[1].Movie.ID)
	}
	again := collectPage(t, s, "alpha", collectedMovie(t, 7, "Night Market (restored)", "2019", "v2", playServer("iframe", "https://p.example/nm2", 3)))
	if again[0].Movie.ID != id {
		t.Fatalf("second run: wrote movie %d, want %d in place", again[0].Movie.ID, id)
	}
	wantMovieCount(t, s, 2)
	m := getMovie(t, s, id)
	if m.Name != "Night Market (restored)" || m.Synopsis != "v2" {
		t.Errorf("updated movie: got %q / %q, want the second run's fields", m.Name, m.Synopsis)
	}
	wantServers(t, "updated movie", m.Episodes, playServer("iframe", "https://p.example/nm2", 3))
	// The same vod_id from another source is another record.
	other := collectPage(t, s, "beta", collectedMovie(t, 7, "Something Else", "2001", "", playServer("iframe", "https://b.example/x", 1)))
	if other[0].Movie.ID == id {
		t.Error("beta's vod_id 7 updated alpha's movie")
	}
	wantMovieCount(t, s, 3)
}

func runCollectJoin(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	imported := []catalog.Movie{{Name: "Sea Fog", Year: "2014", Synopsis: "imported text", IDCode: "SF-1",
		Episodes: []catalog.Server{playServer("Main", "https://own.example/sf", 1)}}}
	noErr(t, imported[0].Normalize(), "Normalize")
	noErr(t, s.UpsertMovies(ctx, imported), "UpsertMovies")
	id := imported[0].ID

	// Another year is another movie; the same name and year joins.
	page := collectPage(t, s, "beta",
		collectedMovie(t, 1, "Sea Fog", "2015", "remake"),
		collectedMovie(t, 2, "Sea Fog", "2014", "beta's text", playServer("iframe", "https://b.example/sf", 2), playServer("m3u8", "https://b.example/m", 1)))
	if page[0].Movie.ID == id || page[1].Movie.ID != id {
		t.Fatalf("ids: got %d and %d, want a new movie then the imported %d", page[0].Movie.ID, page[1].Movie.ID, id)
	}
	wantMovieCount(t, s, 2)
	m := getMovie(t, s, id)
	if m.Synopsis != "imported text" || m.IDCode != "SF-1" {
		t.Errorf("joined movie: got synopsis %q, id_code %q; want the import's", m.Synopsis, m.IDCode)
	}
	wantServers(t, "joined movie", m.Episodes, playServer("Main", "https://own.example/sf", 1),
		playServer("beta: iframe", "https://b.example/sf", 2), playServer("beta: m3u8", "https://b.example/m", 1))

	// beta again: its servers are replaced, the rest stays.
	collectPage(t, s, "beta", collectedMovie(t, 2, "Sea Fog", "2014", "beta's text, edited", playServer("iframe", "https://b.example/sf2", 1)))
	wantMovieCount(t, s, 2)
	m = getMovie(t, s, id)
	if m.Synopsis != "imported text" {
		t.Errorf("joined movie after beta's second run: synopsis %q, want the import's", m.Synopsis)
	}
	wantServers(t, "joined movie after beta's second run", m.Episodes, playServer("Main", "https://own.example/sf", 1),
		playServer("beta: iframe", "https://b.example/sf2", 1))
}

func runCollectOwner(t *testing.T, s catalog.Store) {
	page := collectPage(t, s, "alpha", collectedMovie(t, 40, "Orchard", "2022", "alpha v1", playServer("iframe", "https://a.example/o", 1)))
	id := page[0].Movie.ID
	joined := collectPage(t, s, "gamma", collectedMovie(t, 9, "Orchard", "2022", "gamma", playServer("hls", "https://g.example/o", 1)))
	if joined[0].Movie.ID != id {
		t.Fatalf("gamma's record: wrote %d, want it joined to %d", joined[0].Movie.ID, id)
	}
	collectPage(t, s, "alpha", collectedMovie(t, 40, "Orchard", "2022", "alpha v2", playServer("iframe", "https://a.example/o2", 2)))
	m := getMovie(t, s, id)
	if m.Synopsis != "alpha v2" {
		t.Errorf("owner's update: synopsis %q, want alpha v2", m.Synopsis)
	}
	wantServers(t, "owner's update", m.Episodes, playServer("iframe", "https://a.example/o2", 2), playServer("gamma: hls", "https://g.example/o", 1))
	// alpha's own movie is not a stranger to alpha: a second alpha
	// record of the same name and year is a movie of its own.
	other := collectPage(t, s, "alpha", collectedMovie(t, 41, "Orchard", "2022", "alpha's other cut"))
	if other[0].Movie.ID == id {
		t.Error("alpha's second record joined alpha's own movie")
	}
}

func runCollectDeleted(t *testing.T, s catalog.Store) {
	page := collectPage(t, s, "alpha", collectedMovie(t, 5, "Gone Girl", "2014", ""))
	noErr(t, s.DeleteMovie(context.Background(), page[0].Movie.ID), "DeleteMovie")
	again := collectPage(t, s, "alpha", collectedMovie(t, 5, "Gone Girl", "2014", "back"))
	if again[0].Movie.ID <= 0 || again[0].Movie.ID == page[0].Movie.ID {
		t.Fatalf("after delete: wrote %d, want a new movie", again[0].Movie.ID)
	}
	wantMovieCount(t, s, 1)
}

// Finding 4 of issue 35: another source's servers never count toward a
// source's own update, and a merge keeps within the limits by leaving
// the joining servers out, noted.
func runCollectLimit(t *testing.T, s catalog.Store) {
	servers := func(prefix string, n int) []catalog.Server {
		var out []catalog.Server
		for i := range n {
			out = append(out, playServer(prefix+strconv.Itoa(i), "https://"+prefix+".example/"+strconv.Itoa(i), 1))
		}
		return out
	}
	page := collectPage(t, s, "alpha", collectedMovie(t, 1, "Crowded", "2000", "own v1", servers("a", 20)...))
	id := page[0].Movie.ID
	// beta joins a full movie: written, its server left out, noted.
	joined := collectPage(t, s, "beta",
		collectedMovie(t, 1, "Crowded", "2000", "", playServer("iframe", "https://b.example/c", 1)),
		collectedMovie(t, 2, "Roomy", "2000", ""))
	if joined[0].Err != "" || joined[0].Movie.ID != id || len(joined[0].Notes) != 1 {
		t.Fatalf("a 21st server: got id %d, error %q, notes %q; want it joined to %d with its server left out, noted", joined[0].Movie.ID, joined[0].Err, joined[0].Notes, id)
	}
	if joined[1].Err != "" || joined[1].Movie.ID <= 0 {
		t.Errorf("the other record of the page: got id %d, error %q; want it written", joined[1].Movie.ID, joined[1].Err)
	}
	if m := getMovie(t, s, id); len(m.Episodes) != 20 {
		t.Errorf("crowded movie: %d servers, want its 20", len(m.Episodes))
	}

	// gamma joins alpha's smaller movie with 19 servers; alpha's next
	// run grows to 5 servers and is written whole: two of gamma's are
	// left out, noted, and alpha's synopsis is updated.
	page = collectPage(t, s, "alpha", collectedMovie(t, 3, "Spacious", "2001", "own v1", servers("a", 3)...))
	small := page[0].Movie.ID
	joined = collectPage(t, s, "gamma", collectedMovie(t, 9, "Spacious", "2001", "", servers("g", 19)...))
	if joined[0].Err != "" || joined[0].Movie.ID != small || len(joined[0].Notes) != 1 {
		t.Fatalf("gamma's 19 servers: got id %d, error %q, notes %q; want 17 joined, 2 left out", joined[0].Movie.ID, joined[0].Err, joined[0].Notes)
	}
	if m := getMovie(t, s, small); len(m.Episodes) != 20 {
		t.Fatalf("after gamma: %d servers, want 20", len(m.Episodes))
	}
	again := collectPage(t, s, "alpha", collectedMovie(t, 3, "Spacious", "2001", "own v2", servers("a", 5)...))
	if again[0].Err != "" || len(again[0].Notes) != 1 {
		t.Fatalf("alpha's update: error %q, notes %q; want it written, gamma's servers left out noted", again[0].Err, again[0].Notes)
	}
	m := getMovie(t, s, small)
	if m.Synopsis != "own v2" || len(m.Episodes) != 20 || m.Episodes[4].Name != "a4" || m.Episodes[5].Name != "gamma: g0" {
		t.Errorf("alpha's update: synopsis %q, %d servers (%+v); want own v2, alpha's 5 then 15 of gamma's", m.Synopsis, len(m.Episodes), m.Episodes)
	}
}

// Finding 5 of issue 35: a collected record never takes an id_code or
// slug that a movie of an import or another source holds: the id_code
// is left out, the slug is the record's own, each noted; the source's
// own movies keep theirs.
func runCollectKeys(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	imported := []catalog.Movie{{Name: "Held", Year: "2010", IDCode: "ABC-001", Slug: "taken-slug"}}
	noErr(t, imported[0].Normalize(), "Normalize")
	noErr(t, s.UpsertMovies(ctx, imported), "UpsertMovies")
	rec := func(vodID int64, name, code, slug string) catalog.CollectedMovie {
		m := collectedMovie(t, vodID, name, "2020", "")
		m.Movie.IDCode, m.Movie.Slug = code, slug
		return m
	}
	page := collectPage(t, s, "alpha", rec(1, "Claimer", "ABC-001", "taken-slug"), rec(2, "Claimer", "", "taken-slug"),
		rec(3, "Fine", "OWN-1", "fine"))
	for i, want := range []struct{ code, slug string }{{"", "claimer"}, {"", "claimer-2"}, {"OWN-1", "fine"}} {
		m := getMovie(t, s, page[i].Movie.ID)
		if m.IDCode != want.code || m.Slug != want.slug {
			t.Errorf("record %d: got id_code %q, slug %q; want %q, %q", i, m.IDCode, m.Slug, want.code, want.slug)
		}
		if (len(page[i].Notes) > 0) != (i < 2) {
			t.Errorf("record %d: notes %q", i, page[i].Notes)
		}
	}
	if got := getMovie(t, s, imported[0].ID); got.IDCode != "ABC-001" || got.Slug != "taken-slug" || got.Name != "Held" {
		t.Errorf("the imported movie: got %+v, want it unchanged", got)
	}
	// alpha's own movie keeps its keys on the next run; beta may not
	// take them.
	again := collectPage(t, s, "alpha", rec(3, "Fine", "OWN-1", "fine"))
	if len(again[0].Notes) != 0 {
		t.Errorf("alpha's own keys: notes %q, want none", again[0].Notes)
	}
	other := collectPage(t, s, "beta", rec(5, "Different", "OWN-1", "fine"))
	if m := getMovie(t, s, other[0].Movie.ID); m.IDCode != "" || m.Slug != "different" || len(other[0].Notes) != 2 {
		t.Errorf("beta's claim of alpha's keys: got id_code %q, slug %q, notes %q", m.IDCode, m.Slug, other[0].Notes)
	}

	// A code claimed in advance: an import of it gets a movie of its
	// own (it does not land on the collected one), and the source's next
	// run yields the code.
	claimed := collectPage(t, s, "alpha", rec(9, "Early Bird", "FUTURE-ABC-001", "early-bird"))
	later := []catalog.Movie{{Name: "The Real One", Year: "2024", IDCode: "FUTURE-ABC-001", Synopsis: "imported"}}
	noErr(t, later[0].Normalize(), "Normalize")
	noErr(t, s.UpsertMovies(ctx, later), "UpsertMovies")
	if later[0].ID == claimed[0].Movie.ID {
		t.Fatalf("the import landed on the collected movie %d", later[0].ID)
	}
	if id, err := s.MovieIDByKey(ctx, "FUTURE-ABC-001", ""); err != nil || id != later[0].ID {
		t.Errorf("MovieIDByKey: got %d, %v; want the imported %d", id, err, later[0].ID)
	}
	again = collectPage(t, s, "alpha", rec(9, "Early Bird", "FUTURE-ABC-001", "early-bird"))
	if m := getMovie(t, s, claimed[0].Movie.ID); m.IDCode != "" || len(again[0].Notes) != 1 {
		t.Errorf("the claimer's next run: id_code %q, notes %q; want it yielded, noted", m.IDCode, again[0].Notes)
	}
	if m := getMovie(t, s, later[0].ID); m.IDCode != "FUTURE-ABC-001" || m.Synopsis != "imported" || m.Name != "The Real One" {
		t.Errorf("the imported movie: got %+v", m)
	}
}

// Finding 4 of issue 35: a source's servers never collide with
// hand-made ones, even one named like its own ("SOURCE: NAME"), added
// before the source joined or after.
func runCollectHandMade(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	hand := playServer("beta: iframe", "https://hand.example/h", 1)
	imported := []catalog.Movie{{Name: "Handy", Year: "2015", Episodes: []catalog.Server{playServer("Main", "https://own.example/h", 1), hand}}}
	noErr(t, imported[0].Normalize(), "Normalize")
	noErr(t, s.UpsertMovies(ctx, imported), "UpsertMovies")
	id := imported[0].ID
	collectPage(t, s, "beta", collectedMovie(t, 1, "Handy", "2015", "", playServer("iframe", "https://b.example/1", 1)))
	wantServers(t, "first join", getMovie(t, s, id).Episodes, playServer("Main", "https://own.example/h", 1), hand,
		playServer("beta: iframe (2)", "https://b.example/1", 1))

	// An administrator adds another server named like beta's.
	m := getMovie(t, s, id)
	later := playServer("beta: m3u8", "https://hand.example/later", 1)
	m.Episodes = append(m.Episodes, later)
	noErr(t, s.UpdateMovie(ctx, &m), "UpdateMovie")
	collectPage(t, s, "beta", collectedMovie(t, 1, "Handy", "2015", "", playServer("iframe", "https://b.example/2", 2), playServer("m3u8", "https://b.example/m", 1)))
	wantServers(t, "second run", getMovie(t, s, id).Episodes, playServer("Main", "https://own.example/h", 1), hand, later,
		playServer("beta: iframe (2)", "https://b.example/2", 2), playServer("beta: m3u8 (2)", "https://b.example/m", 1))
}
