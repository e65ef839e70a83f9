package cli_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/cli"
	"catalog/internal/importer"
	"catalog/internal/testdb"
)

// growBatches are the import batches of TestSiteGrowsUnderLoad: one
// movie into the empty catalog, then larger batches, past the search
// index's first block of 4,096 keys (where the index of f654c24 broke,
// TestSiteFirstDay) to 4,900 movies.
var growBatches = []int{1, 9, 90, 400, 800, 900, 900, 900, 900}

// Clients of TestSiteGrowsUnderLoad beside the importer.
const (
	growReaders = 3
	growHitters = 2
)

// TestSiteGrowsUnderLoad is a site's first day as its clients live it
// (TestSiteFirstDay takes the same day one step at a time), on the
// engine CATALOG_TEST_ENGINE names. serve starts on an empty catalog,
// which grows in batches through the import API (and one batch of
// changes to earlier movies) while clients read lists with filters and
// the orders new, title and hits, facets, details, a search and
// MacCMS's hot list, and players send hit beacons for the movies just
// imported, each from several addresses, twice. Then serve stops and
// starts, and is killed with SIGKILL after an
// import and started again. Throughout:
//   - no answer is a 5xx but a 503 with Retry-After before the index
//     first answered (contract 2, 3.4), and serve logs no error;
//   - no client sees the catalog shrink, and every list is in its order;
//   - an import shows in the next read of the list, a search, MacCMS's
//     h=, a filter, the facets and the detail (contracts 4.3, 6, 12);
//   - facet counts, filtered lists and sort=title|new|updated are those
//     computed from the imported data;
//   - the hits stored, once their batch is written, are one per client
//     address (an IPv6 client's /64, behind --trusted-proxies), movie and
//     hour, re-imports or not; sort=hits and MacCMS's by=hits follow
//     them, and no hit changes a movie's place in sort=updated
//     (contract 12);
//   - after each restart all of it is served as before, counts included.
func TestSiteGrowsUnderLoad(t *testing.T) {
	t.Parallel()
	dsn := testdb.New(t).DSN()
	s := &site{day: &day{t: t, dsn: dsn, env: map[string]string{"CATALOG_DB": dsn},
		args: append(serveArgs(), "--index-dir", t.TempDir(), "--snapshot-dir", t.TempDir(), "--trusted-proxies", "127.0.0.1")}}
	tok := run(t, s.env, "", "token", "create", "--name", "importer", "--scope", "movies:write")
	wantExit(t, tok, 0)
	s.token = strings.TrimSpace(tok.stdout)

	// The clients come as soon as serve listens, before its index is
	// built, and at every start after.
	s.srv = startServe(t, s.env, s.args...)
	s.underLoad("growth", func(beacon func(grownMovie)) {
		for b, n := range growBatches {
			for _, m := range s.importBatch(b, n) {
				if m.hits > 0 {
					beacon(m)
				}
			}
			if b == 5 {
				// A later run of the source: movies again, changed.
				// Some have hits, which may or may not be written yet.
				s.reimport(func(m *grownMovie) bool { return m.n%30 == 0 })
			}
		}
	})
	s.waitHits()
	s.check("grown under load")

	// A restart, as a process of its own, to be killed with SIGKILL at
	// once after its import has answered; then a start after it. The
	// import and the hits stored before are served.
	if err := s.srv.stop(t); err != nil {
		t.Fatal(err)
	}
	s.checkLog()
	killed := s.startProcess()
	s.underLoad("a restart", func(func(grownMovie)) {
		s.srv.stderr.waitLog(t, 2, "search index ready")
		s.check("a restart")
		for i := range s.importBatch(len(growBatches), 300) {
			s.movies[len(s.movies)-1-i].hits = 0 // no beacons this time
		}
	})
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	s.srv = startServe(t, s.env, s.args...)
	s.underLoad("a start after SIGKILL", func(func(grownMovie)) {
		s.srv.stderr.waitLog(t, 2, "search index ready")
		s.check("a start after SIGKILL")
	})
	if err := s.srv.stop(t); err != nil {
		t.Fatal(err)
	}
	s.checkLog()
}

// site is the catalog under test and what it must hold.
type site struct {
	*day                             // serve, its arguments and log
	token    string                  // movies:write
	movies   []grownMovie            // imported, in order
	known    atomic.Pointer[[]int64] // the ids imported so far, for the readers
	ready    atomic.Bool             // a list has been answered: the index is built
	problems problems                // that the clients' goroutines met
	// What the clients sent in one phase: reads, of them 503 while the
	// index was building, and beacons.
	reads, building, beacons atomic.Int64
}

// grownMovie is one imported movie: its data and the hits that must be
// stored for it.
type grownMovie struct {
	n        int // in import order, from 0
	id       int64
	code     string
	title    string
	year     string
	category string
	actors   []string
	hits     int64 // client addresses that send it beacons
}

// stars are the actors of the grown catalog; their names differ before
// any letter whose case differs, so that their byte order is their
// folded order.
var stars = []string{"Aoi Mori", "Ben Carter", "Chen Jing", "Dara Kim", "Elena Ruiz", "Fumi Sato",
	"Grace Liu", "Hana Ito", "Ivan Petrov", "Jun Park", "Kira Lane", "Lin Wei"}

// newGrownMovie is the movie numbered n, the i-th of import batch b.
// Every tenth of a batch also has the batch's newcomer as an actor,
// every seventh "harbor" in its title, and every twentieth gets beacons
// from 1 to 11 addresses.
func newGrownMovie(n, b, i int) grownMovie {
	first := []string{"Amber", "Blue", "Crimson", "Distant", "Echo", "Frozen", "Golden", "Hidden", "Iron", "Jade", "Lonely"}
	second := []string{"River", "Garden", "Station", "Summer", "Letters", "Road", "Tide"}
	m := grownMovie{n: n, code: fmt.Sprintf("GRW-%05d", n),
		title:    fmt.Sprintf("%s %s %d", first[n%len(first)], second[n/len(first)%len(second)], n),
		year:     strconv.Itoa(1990 + n%30),
		category: []string{"Drama", "Comedy", "Action"}[n%3],
		actors:   []string{stars[n%len(stars)]}}
	if a := stars[(n/len(stars)+5)%len(stars)]; a != m.actors[0] {
		m.actors = append(m.actors, a)
	}
	if i%10 == 0 {
		m.actors = append(m.actors, newcomer(b))
	}
	if n%7 == 0 {
		m.title += " harbor"
	}
	if n%20 == 0 {
		m.hits = int64(1 + n/20%11)
	}
	return m
}

func newcomer(batch int) string { return fmt.Sprintf("Newcomer %02d", batch) }

// underLoad runs work while the readers read and the hitters send the
// beacons of the movies work passes to beacon, then fails on any
// problem they met or error serve logged. The index of serve is taken to
// be building until a reader gets a list.
func (s *site) underLoad(phase string, work func(beacon func(grownMovie))) {
	t := s.t
	t.Helper()
	s.ready.Store(false)
	s.reads.Store(0)
	s.building.Store(0)
	s.beacons.Store(0)
	stop := make(chan struct{})
	beacons := make(chan grownMovie, 1<<12)
	var readers, hitters sync.WaitGroup
	for r := range growReaders {
		readers.Go(func() { s.read(stop, r) })
	}
	for range growHitters {
		hitters.Go(func() {
			for m := range beacons {
				s.beacon(m)
			}
		})
	}
	stopped := false
	end := func() {
		if !stopped {
			stopped = true
			close(beacons)
			hitters.Wait()
			close(stop)
			readers.Wait()
		}
	}
	defer end() // when work fails the test
	work(func(m grownMovie) { beacons <- m })
	end()
	s.problems.fail(t)
	t.Logf("%s: %d movies, %d reads (%d while the index was building), %d beacons", phase, len(s.movies), s.reads.Load(), s.building.Load(), s.beacons.Load())
	s.checkLog()
}

// importBatch imports batch b of n new movies through the import API,
// learns their ids from the next list read and checks that the other
// reads show them at once.
func (s *site) importBatch(b, n int) []grownMovie {
	t := s.t
	t.Helper()
	step := fmt.Sprintf("batch %d", b)
	first := len(s.movies)
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	for i := range n {
		m := newGrownMovie(first+i, b, i)
		enc.Encode(m.record())
		s.movies = append(s.movies, m)
	}
	if rep := importMovies(t, s.srv.addrs.Clips.String(), s.token, body.Bytes()); rep.Imported != n || rep.Rejected != 0 {
		t.Fatalf("%s: imported %d, rejected %d, want %d and 0: %+v", step, rep.Imported, rep.Rejected, n, rep.Rejects)
	}

	// The newest n of the list are the batch.
	ids := map[string]int64{}
	for page := 1; len(ids) < n; page++ {
		var got listAnswer
		s.get(fmt.Sprintf("/api/movies?fields=id,id_code&limit=100&page=%d", page), &got)
		if got.Total != int64(len(s.movies)) || len(got.List) == 0 {
			t.Fatalf("%s: the next list read has %d movies, want %d", step, got.Total, len(s.movies))
		}
		for _, r := range got.List[:min(len(got.List), n-len(ids))] {
			ids[r.IDCode] = r.ID
		}
	}
	known := make([]int64, 0, len(s.movies))
	for i := range s.movies {
		m := &s.movies[i]
		if i >= first {
			if m.id = ids[m.code]; m.id == 0 {
				t.Fatalf("%s: %s is not among the newest %d of the list", step, m.code, n)
			}
		}
		known = append(known, m.id)
	}
	s.known.Store(&known)

	s.nextRead(step, newcomer(b), s.movies[len(s.movies)-1])
	return s.movies[first:]
}

// reimport imports again the movies keep accepts, changed as a later
// run of a collector brings them: their titles longer and a guest in
// place of all but their first actor. Their ids and hits stay.
func (s *site) reimport(keep func(*grownMovie) bool) {
	t := s.t
	t.Helper()
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	var last grownMovie
	n := 0
	for i := range s.movies {
		if m := &s.movies[i]; keep(m) {
			m.title += " restored"
			m.actors = []string{m.actors[0], guest}
			enc.Encode(m.record())
			n++
			last = *m
		}
	}
	if rep := importMovies(t, s.srv.addrs.Clips.String(), s.token, body.Bytes()); rep.Imported != n || rep.Rejected != 0 {
		t.Fatalf("re-import: imported %d, rejected %d, want %d and 0: %+v", rep.Imported, rep.Rejected, n, rep.Rejects)
	}
	s.nextRead("re-import", guest, last)
}

// guest is the actor that a re-import brings.
const guest = "Guest Star"

// record is m as an import record (contract 4.6).
func (m *grownMovie) record() map[string]any {
	return map[string]any{"name": m.title, "id_code": m.code, "year": m.year, "categories": []string{m.category}, "actor": m.actors}
}

func harbor(m *grownMovie) bool { return strings.Contains(m.title, "harbor") }

// nextRead checks that the reads after an import show it: a search,
// MacCMS's h=, a filter on actor, the actors' facet and the detail of
// the movie changed.
func (s *site) nextRead(step, actor string, changed grownMovie) {
	t := s.t
	t.Helper()
	for _, c := range []struct {
		path string
		want int
	}{
		{"/api/movies?limit=1&q=harbor", s.count(harbor)},
		{"/api/movies?limit=1&q=restored", s.count(func(m *grownMovie) bool { return strings.HasSuffix(m.title, " restored") })},
		{"/api.php/provide/vod/?ac=list&h=1", len(s.movies)},
		{"/api/movies?limit=1&actor=" + url.QueryEscape(actor), s.count(func(m *grownMovie) bool { return slices.Contains(m.actors, actor) })},
	} {
		var got listAnswer
		if s.get(c.path, &got); got.Total != int64(c.want) {
			t.Fatalf("%s: GET %s: total %d, want %d", step, c.path, got.Total, c.want)
		}
	}
	s.wantFacet(step, "/api/movies/facets?field=actor", s.facet("actor", nil))
	var detail struct{ Data row }
	if s.get(fmt.Sprintf("/api/movies/%d?fields=id,title,actor", changed.id), &detail); detail.Data.Title != changed.title || !slices.Equal(detail.Data.Actor, changed.actors) {
		t.Fatalf("%s: movie %d is %+v, want %+v", step, changed.id, detail.Data, changed)
	}
}

// check compares what serve answers with what was imported and the
// hits sent.
func (s *site) check(step string) {
	t := s.t
	t.Helper()
	// Every movie, as imported, with its hits.
	byID := map[int64]*grownMovie{}
	for i := range s.movies {
		byID[s.movies[i].id] = &s.movies[i]
	}
	seen := 0
	for page := 1; seen < len(s.movies); page++ {
		var got listAnswer
		s.get(fmt.Sprintf("/api/movies?fields=id,id_code,title,year,actor,hits&limit=100&page=%d", page), &got)
		if got.Total != int64(len(s.movies)) || len(got.List) == 0 {
			t.Fatalf("%s: %d movies listed, want %d", step, got.Total, len(s.movies))
		}
		for _, r := range got.List {
			m := byID[r.ID]
			if m == nil || r.IDCode != m.code || r.Title != m.title || r.Year != m.year || !slices.Equal(r.Actor, m.actors) || r.Hits != strconv.FormatInt(m.hits, 10) {
				t.Fatalf("%s: listed %+v, want %+v", step, r, m)
			}
			seen++
		}
	}

	star := func(m *grownMovie) bool { return slices.Contains(m.actors, stars[1]) }
	comedy := func(m *grownMovie) bool { return m.category == "Comedy" }
	s.wantFacet(step, "/api/movies/facets?field=actor", s.facet("actor", nil))
	s.wantFacet(step, "/api/movies/facets?field=actor&q=harbor", s.facet("actor", harbor))
	s.wantFacet(step, "/api/movies/facets?field=year&actor="+url.QueryEscape(stars[1]), s.facet("year", star))
	s.wantFacet(step, "/api/movies/facets?field=category&year=1995", s.facet("category", func(m *grownMovie) bool { return m.year == "1995" }))

	for _, c := range []struct {
		path string
		want []int64
		all  int // the total
	}{
		{"/api/movies?fields=id&limit=100&sort=hits", s.order("hits", nil), len(s.movies)},
		{"/api/movies?fields=id&limit=100&sort=hits&page=2", s.order("hits", nil)[100:], len(s.movies)},
		// A hit never changes updated_at: the comedies, which no
		// re-import changed, in the order of the imports.
		{"/api/movies?fields=id&limit=100&sort=updated&category=Comedy", s.order("new", comedy), s.count(comedy)},
		{"/api/movies?fields=id&limit=100&actor=" + url.QueryEscape(stars[1]), s.order("new", star), s.count(star)},
		{"/api/movies?fields=id&limit=100&sort=title&actor=" + url.QueryEscape(stars[1]), s.order("title", star), s.count(star)},
		{"/api/movies?fields=id&limit=100&sort=hits&actor=" + url.QueryEscape(stars[1]), s.order("hits", star), s.count(star)},
	} {
		var got listAnswer
		s.get(c.path, &got)
		ids := make([]int64, len(got.List))
		for i, r := range got.List {
			ids[i] = r.ID
		}
		if want := c.want[:min(len(c.want), 100)]; got.Total != int64(c.all) || !slices.Equal(ids, want) {
			t.Fatalf("%s: GET %s: total %d, ids %v;\nwant %d, %v", step, c.path, got.Total, ids, c.all, want)
		}
	}

	var vods listAnswer
	s.get("/api.php/provide/vod/?ac=detail&t=&by=hits", &vods)
	want := s.order("hits", nil)[:20]
	for i, r := range vods.List {
		if i >= len(want) || r.VodID != want[i] || r.VodHits != byID[want[i]].hits {
			t.Fatalf("%s: MacCMS by=hits: record %d is %d with %d hits, want %d with %d", step, i, r.VodID, r.VodHits, want[i], byID[want[i]].hits)
		}
	}
	if vods.Total != int64(len(s.movies)) || len(vods.List) != len(want) {
		t.Fatalf("%s: MacCMS by=hits: %d records of %d, want %d of %d", step, len(vods.List), vods.Total, len(want), len(s.movies))
	}
	s.checkLog()
}

// waitHits waits until the movies' hits are stored and served in
// sort=hits: the beacons' counts are written in batches every few
// seconds (internal/hits), which this polls for, for 30 s at most.
func (s *site) waitHits() {
	t := s.t
	t.Helper()
	hits := map[int64]int64{}
	for _, m := range s.movies {
		hits[m.id] = m.hits
	}
	want := s.order("hits", func(m *grownMovie) bool { return m.hits > 0 })
	deadline := time.Now().Add(30 * time.Second)
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	for {
		var got []row
		for page := 1; len(got) < len(want); page++ {
			var l listAnswer
			s.get(fmt.Sprintf("/api/movies?fields=id,hits&limit=100&sort=hits&page=%d", page), &l)
			if len(l.List) == 0 {
				t.Fatalf("sort=hits lists %d movies, want at least %d", len(got), len(want))
			}
			got = append(got, l.List...)
		}
		i := 0
		for i < len(want) && got[i].ID == want[i] && got[i].Hits == strconv.FormatInt(hits[want[i]], 10) {
			i++
		}
		if i == len(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("hits after 30 s: sort=hits has movie %d with %s hits at %d, want movie %d with %d",
				got[i].ID, got[i].Hits, i+1, want[i], hits[want[i]])
		}
		<-poll.C
	}
}

// order is the ids of the movies keep accepts (nil: all) in the order
// sort names: new (id descending), title (folded title ascending; the
// titles are ASCII and differ) or hits (descending); ties by id
// descending.
func (s *site) order(sort string, keep func(*grownMovie) bool) []int64 {
	var ms []*grownMovie
	for i := range s.movies {
		if keep == nil || keep(&s.movies[i]) {
			ms = append(ms, &s.movies[i])
		}
	}
	slices.SortFunc(ms, func(a, b *grownMovie) int {
		switch sort {
		case "title":
			return strings.Compare(strings.ToLower(a.title), strings.ToLower(b.title))
		case "hits":
			return cmp.Or(cmp.Compare(b.hits, a.hits), cmp.Compare(b.id, a.id))
		}
		return cmp.Compare(b.id, a.id)
	})
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.id
	}
	return ids
}

func (s *site) count(keep func(*grownMovie) bool) int {
	return len(s.order("new", keep))
}

// facet is the facet of field (actor, year or category) over the movies
// keep accepts (nil: all), as contract 12 orders it: count descending,
// then value ascending.
func (s *site) facet(field string, keep func(*grownMovie) bool) []row {
	counts := map[string]int64{}
	for i := range s.movies {
		m := &s.movies[i]
		if keep != nil && !keep(m) {
			continue
		}
		switch field {
		case "actor":
			for _, a := range m.actors {
				counts[a]++
			}
		case "year":
			counts[m.year]++
		case "category":
			counts[m.category]++
		}
	}
	var rows []row
	for v, n := range counts {
		rows = append(rows, row{Value: v, Count: n})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Value, b.Value)) })
	return rows
}

// wantFacet pages through the facet at path and compares it with want.
func (s *site) wantFacet(step, path string, want []row) {
	t := s.t
	t.Helper()
	var got []row
	for page := 1; ; page++ {
		var l listAnswer
		s.get(fmt.Sprintf("%s&limit=100&page=%d", path, page), &l)
		if l.Total != int64(len(want)) {
			t.Fatalf("%s: GET %s: %d values, want %d", step, path, l.Total, len(want))
		}
		got = append(got, l.List...)
		if len(l.List) == 0 || len(got) >= len(want) {
			break
		}
	}
	if !slices.EqualFunc(got, want, func(a, b row) bool { return a.Value == b.Value && a.Count == b.Count }) {
		t.Fatalf("%s: GET %s:\n%v\nwant\n%v", step, path, got, want)
	}
}

// get reads path from the movie service into v; anything but a 200
// fails the test.
func (s *site) get(path string, v any) {
	s.t.Helper()
	if code := getJSON(s.t, http.DefaultClient, s.base()+path, v); code != http.StatusOK {
		s.t.Fatalf("GET %s: %d", path, code)
	}
}

// listAnswer is a list envelope of the movie service (contract 4.2, 6),
// of movies, facet values or MacCMS records.
type listAnswer struct {
	Total int64 `json:"total"`
	List  []row `json:"list"`
}

// row holds the members the test reads of a movie, a facet value or a
// MacCMS record; each has only its own.
type row struct {
	ID      int64    `json:"id"`
	IDCode  string   `json:"id_code"`
	Title   string   `json:"title"`
	Year    string   `json:"year"`
	Actor   []string `json:"actor"`
	Hits    string   `json:"hits"`
	Value   string   `json:"value"`
	Count   int64    `json:"count"`
	VodID   int64    `json:"vod_id"`
	VodHits int64    `json:"vod_hits"`
}

// read is one reader until stop: lists with a filter in the orders
// hits, new and title, the actors' facet, MacCMS's hot list, a search,
// the whole list and the detail of a movie imported so far, in turn.
// Each answer is checked on its own (its status, its order) and against
// the reader's earlier ones (the catalog does not shrink).
func (s *site) read(stop <-chan struct{}, r int) {
	totals := map[string]int64{}
	for i := r; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		star := url.QueryEscape(stars[i/8%len(stars)])
		path := []string{
			"/api/movies?fields=id,hits&limit=50&sort=hits&actor=" + star,
			"/api/movies?fields=id&limit=50&sort=new&actor=" + star,
			"/api/movies?fields=id,title&limit=50&sort=title&actor=" + star,
			"/api/movies/facets?field=actor&limit=100",
			"/api.php/provide/vod/?ac=detail&t=&by=hits",
			"/api/movies?fields=id&limit=20&q=harbor",
			"/api/movies?limit=1",
			"", // a detail
		}[i%8]
		var id int64
		if path == "" {
			known := s.known.Load()
			if known == nil {
				continue
			}
			id = (*known)[i%len(*known)]
			path = fmt.Sprintf("/api/movies/%d?fields=id,title", id)
		}
		if err := s.readOne(path, id, totals); err != nil {
			s.problems.add("GET %s: %v", path, err)
		}
	}
}

// readOne reads path and checks its answer; id is the movie of a
// detail, 0 for a list.
func (s *site) readOne(path string, id int64, totals map[string]int64) error {
	indexBuilt := s.ready.Load()
	r, err := fetch(http.MethodGet, s.base()+path, "")
	s.reads.Add(1)
	switch {
	case err != nil:
		return err
	case r.status == http.StatusServiceUnavailable && r.header.Get("Retry-After") != "" && !indexBuilt:
		s.building.Add(1)
		return nil
	case r.status != http.StatusOK:
		return fmt.Errorf("status %d: %s", r.status, r.body)
	}
	if id != 0 {
		var d struct{ Data row }
		if err := json.Unmarshal([]byte(r.body), &d); err != nil || d.Data.ID != id {
			return fmt.Errorf("%s: %v, want movie %d", r.body, err, id)
		}
		return nil
	}
	s.ready.Store(true)
	var l listAnswer
	if err := json.Unmarshal([]byte(r.body), &l); err != nil {
		return fmt.Errorf("%s: %v", r.body, err)
	}
	// Re-imports take actors from movies; nothing leaves the catalog or
	// loses "harbor" from its title.
	if !strings.Contains(path, "actor") {
		if l.Total < totals[path] {
			return fmt.Errorf("total %d after %d: the catalog only grows", l.Total, totals[path])
		}
		totals[path] = l.Total
	}
	for i := 1; i < len(l.List); i++ {
		a, b := l.List[i-1], l.List[i]
		var inOrder bool
		switch {
		case strings.Contains(path, "sort=hits"):
			ha, _ := strconv.Atoi(a.Hits)
			hb, _ := strconv.Atoi(b.Hits)
			inOrder = ha > hb || ha == hb && a.ID > b.ID
		case strings.Contains(path, "sort=title"):
			inOrder = strings.ToLower(a.Title) < strings.ToLower(b.Title)
		case strings.Contains(path, "facets"):
			inOrder = a.Count > b.Count || a.Count == b.Count && a.Value < b.Value
		case strings.Contains(path, "by=hits"):
			inOrder = a.VodHits > b.VodHits || a.VodHits == b.VodHits && a.VodID > b.VodID
		default:
			inOrder = a.ID > b.ID
		}
		if !inOrder {
			return fmt.Errorf("%+v before %+v", a, b)
		}
	}
	return nil
}

// beacon sends m's hit beacons: two from each of m.hits clients, of
// which only the first counts. Every third client is an IPv6 one whose
// second beacon comes from another address of its /64; every fourth
// wrote an X-Forwarded-For hop of its own, which serve must not believe.
func (s *site) beacon(m grownMovie) {
	for k := range m.hits {
		for again := range 2 {
			client := fmt.Sprintf("203.0.113.%d", k+1)
			if k%3 == 2 {
				client = fmt.Sprintf("2001:db8:%x::%x", k, again+1)
			}
			if k%4 == 3 {
				client = fmt.Sprintf("192.0.2.%d, %s", again+1, client)
			}
			path := fmt.Sprintf("/api/movies/%d/hit", m.id)
			r, err := fetch(http.MethodPost, s.base()+path, client)
			s.beacons.Add(1)
			if err == nil && r.status != http.StatusNoContent {
				err = fmt.Errorf("status %d: %s", r.status, r.body)
			}
			if err != nil {
				s.problems.add("POST %s from %s: %v", path, client, err)
			}
		}
	}
}

// fetch sends one request from a client goroutine, which must not stop
// the test: forwardedFor, when set, is its X-Forwarded-For.
func fetch(method, target, forwardedFor string) (reply, error) {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		return reply{}, err
	}
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: string(body)}, err
}

// problems collects what the clients' goroutines found.
type problems struct {
	mu    sync.Mutex
	n     int
	first []string
}

func (p *problems) add(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if len(p.first) < 10 {
		p.first = append(p.first, fmt.Sprintf(format, args...))
	}
}

func (p *problems) fail(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n > 0 {
		t.Fatalf("%d problems, the first:\n%s", p.n, strings.Join(p.first, "\n"))
	}
}

// listening is serve's log line that names its addresses.
var listening = regexp.MustCompile(`"msg":"listening".*"clips_addr":"([^"]+)","movies_addr":"([^"]+)"`)

// startProcess starts serve as a process of its own (the test binary as
// catalog, TestMain), which the test can kill, once it listens.
func (s *site) startProcess() *exec.Cmd {
	t := s.t
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve"}, s.args...)...)
	cmd.Env = append(os.Environ(), asCatalog+"=1", "CATALOG_DB="+s.dsn)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	m := listening.FindStringSubmatch(log.waitFor(t, "listening", listening.MatchString))
	addrs := cli.Addrs{}
	for i, a := range []*net.Addr{&addrs.Clips, &addrs.Movies} {
		tcp, err := net.ResolveTCPAddr("tcp", m[i+1])
		if err != nil {
			t.Fatal(err)
		}
		*a = tcp
	}
	s.srv = &server{addrs: addrs, stderr: log}
	return cmd
}

// importMovies posts movies as JSON Lines to the clip service at addr's
// import API with the token and returns its report; anything but a 200
// fails the test.
func importMovies(t *testing.T, addr, token string, jsonl []byte) importer.Report {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/api/import/movies", bytes.NewReader(jsonl))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var rep struct{ Data importer.Report }
	if err := json.Unmarshal(body, &rep); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("POST /api/import/movies: %d %s", resp.StatusCode, body)
	}
	return rep.Data
}
