package importer_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/importer"
	"catalog/internal/sqlite"
	"catalog/internal/storetest"
)

func openStore(tb testing.TB) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "catalog.db"), sqlite.Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return s
}

func importMovies(tb testing.TB, s catalog.MovieStore, name, input string, opts importer.Options) importer.Summary {
	tb.Helper()
	sum, err := importer.Movies(context.Background(), s, name, strings.NewReader(input), opts)
	if err != nil {
		tb.Fatalf("Movies(%s): %v", name, err)
	}
	return sum
}

func allMovies(tb testing.TB, s catalog.MovieStore) []catalog.Movie {
	tb.Helper()
	var out []catalog.Movie
	err := s.EachMovie(context.Background(), func(m *catalog.Movie) error {
		out = append(out, *m)
		return nil
	})
	if err != nil {
		tb.Fatalf("EachMovie: %v", err)
	}
	return out
}

// rejectLines maps each rejected line to its message.
func rejectLines(sum importer.Summary) map[int]string {
	out := map[int]string{}
	for _, r := range sum.Rejects {
		out[r.Line] = r.Message
	}
	return out
}

func wantSummary(tb testing.TB, sum importer.Summary, read, imported, rejected int) {
	tb.Helper()
	if sum.Read != read || sum.Imported != imported || sum.Rejected != rejected {
		tb.Fatalf("summary: got read %d imported %d rejected %d, want %d %d %d (rejects %v)",
			sum.Read, sum.Imported, sum.Rejected, read, imported, rejected, sum.Rejects)
	}
}

// wantRejects checks that exactly the given lines were rejected, each
// with a message containing the given text.
func wantRejects(tb testing.TB, sum importer.Summary, want map[int]string) {
	tb.Helper()
	got := rejectLines(sum)
	for line, text := range want {
		msg, ok := got[line]
		if !ok {
			tb.Errorf("line %d: not rejected, want a message containing %q (rejects %v)", line, text, sum.Rejects)
			continue
		}
		if !strings.Contains(msg, text) {
			tb.Errorf("line %d: got message %q, want it to contain %q", line, msg, text)
		}
	}
	for line, msg := range got {
		if _, ok := want[line]; !ok {
			tb.Errorf("line %d: rejected with %q, want it imported", line, msg)
		}
	}
}

const goodMovie = `{"id": 7, "name": "Summer in Kyoto", "slug": "summer-in-kyoto", "year": "2019",
"poster1_url": "https://example.com/p1.jpg", "poster2_url": "https://example.com/p2.jpg",
"categories": ["Drama", "Travel"], "actor": ["Aiko Tanaka"], "director": ["Hana Mori"], "studio": ["Blue Harbor Films"],
"genre": ["Slice of life"], "country": ["Japan"], "synopsis": "A quiet summer.", "id_code": "ABC-123",
"release": "2019-05-01", "score": "8.2", "douban_id": "1292052", "link_embed": "https://player.example.com/embed/ABC-123"}`

func oneLineJSON(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestMoviesFullRecord(t *testing.T) {
	s := openStore(t)
	sum := importMovies(t, s, "movies.jsonl", oneLineJSON(goodMovie)+"\n", importer.Options{})
	wantSummary(t, sum, 1, 1, 0)
	m, err := s.GetMovie(context.Background(), 7)
	if err != nil {
		t.Fatalf("GetMovie(7): %v", err)
	}
	got := string(m.AppendJSON(nil, catalog.AllFields(true), true))
	want := `{"id":7,"title":"Summer in Kyoto","slug":"summer-in-kyoto","year":"2019",` +
		`"poster1_url":"https://example.com/p1.jpg","poster2_url":"https://example.com/p2.jpg",` +
		`"categories":"Drama, Travel","actor":"Aiko Tanaka","director":"Hana Mori","studio":"Blue Harbor Films",` +
		`"genre":"Slice of life","country":"Japan","synopsis":"A quiet summer.","id_code":"ABC-123","release":"2019-05-01",` +
		`"score":"8.2","douban_id":"1292052","hits":"0","hits_day":"0","hits_week":"0","hits_month":"0","episodes":[{"server_name":"Main","status":"unchecked","checked_at":"","server_data":[{"name":"Full","slug":"full","link_embed":"https://player.example.com/embed/ABC-123","link_m3u8":""}]}],` +
		`"URL_player":{"server_data":{"link_embed":"https://player.example.com/embed/ABC-123"}}}`
	if got != want {
		t.Errorf("stored movie:\n got %s\nwant %s", got, want)
	}
	if l := m.Lists[0].JSON; l != `["Drama","Travel"]` {
		t.Errorf("categories array: got %s, want [\"Drama\",\"Travel\"]", l)
	}
}

func TestMoviesFormats(t *testing.T) {
	jsonArray := "[\n" +
		`  {"name": "First", "id_code": "A-1", "categories": ["Drama", "Comedy"]},` + "\n" +
		`  {"name": "Second", "id_code": "A-2", "release": "2019-02-30"},` + "\n" +
		"\n" +
		`  {"title": "Third", "id_code": "A-3", "categories": "Drama, Comedy"}` + "\n" +
		"]\n"
	jsonl := `{"name": "First", "id_code": "A-1", "categories": ["Drama", "Comedy"]}` + "\n" +
		`{"name": "Second", "id_code": "A-2", "release": "2019-02-30"}` + "\n" +
		"\n" +
		`{"title": "Third", "id_code": "A-3", "categories": "Drama, Comedy"}` + "\n"
	csv := "name,id_code,release,categories\n" +
		"First,A-1,,Drama|Comedy\n" +
		"Second,A-2,2019-02-30,\n" +
		"\n" +
		"Third,A-3,,\"Drama, Comedy\"\n"
	for _, tc := range []struct {
		name, input string
		badLine     int
	}{
		{"movies.json", jsonArray, 3},
		{"movies.jsonl", jsonl, 2},
		{"movies.ndjson", jsonl, 2},
		{"-", jsonl, 2},
		{"movies.csv", csv, 3},
		{"MOVIES.CSV", csv, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			sum := importMovies(t, s, tc.name, tc.input, importer.Options{})
			wantSummary(t, sum, 3, 2, 1)
			wantRejects(t, sum, map[int]string{tc.badLine: "release: must be a real date"})
			got := allMovies(t, s)
			if len(got) != 2 {
				t.Fatalf("stored %d movies, want 2", len(got))
			}
			for _, m := range got {
				if m.Lists[0].JSON != `["Drama","Comedy"]` {
					t.Errorf("%s categories: got %s, want [\"Drama\",\"Comedy\"]", m.Name, m.Lists[0].JSON)
				}
			}
		})
	}
}

func TestMoviesBadRecords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		want  map[int]string
	}{
		{"bad date", `{"name": "A", "release": "2019-13-01"}`, map[int]string{1: "release: must be a real date as YYYY-MM-DD"}},
		{"javascript URL", `{"name": "A", "poster1_url": "javascript:alert(1)"}`, map[int]string{1: "poster1_url: must be an absolute http or https URL"}},
		{"link_embed not http", `{"name": "A", "link_embed": "ftp://example.com/x"}`, map[int]string{1: "link_embed:"}},
		{"missing name", `{"slug": "a"}`, map[int]string{1: "name: is required"}},
		{"blank name", `{"name": "   "}`, map[int]string{1: "name: is required"}},
		{"unknown member", `{"name": "A", "rating": 5}`, map[int]string{1: `rating: is not a known field`}},
		{"not JSON", `{"name": "A",`, map[int]string{1: "not valid JSON"}},
		{"not an object", `["A"]`, map[int]string{1: "not a JSON object"}},
		{"null", `null`, map[int]string{1: "not a JSON object"}},
		{"bad id", `{"id": -3, "name": "A"}`, map[int]string{1: "id: must be a positive integer"}},
		{"fractional id", `{"id": 1.5, "name": "A"}`, map[int]string{1: "id: must be a positive integer"}},
		{"list of numbers", `{"name": "A", "actor": [1, 2]}`, map[int]string{1: "actor: must be an array of strings"}},
		{"name as object", `{"name": {"en": "A"}}`, map[int]string{1: "name: must be a string"}},
		{"title differs from name", `{"name": "A", "title": "B"}`, map[int]string{1: "title: differs from name"}},
		{"several problems", `{"name": "", "release": "soon"}`, map[int]string{1: "name: is required; release: must be a real date"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			input := `{"name": "Good before", "id_code": "G-1"}` + "\n" + tc.input + "\n" + `{"name": "Good after", "id_code": "G-2"}` + "\n"
			sum := importMovies(t, s, "m.jsonl", input, importer.Options{})
			want := map[int]string{}
			for line, msg := range tc.want {
				want[line+1] = msg
			}
			wantSummary(t, sum, 3, 2, 1)
			wantRejects(t, sum, want)
			if n := len(allMovies(t, s)); n != 2 {
				t.Errorf("stored %d movies, want the 2 good ones", n)
			}
		})
	}
}

func TestMoviesJSONArrayLines(t *testing.T) {
	input := `[{"name": "A", "id_code": "X-1"}, {"name": "B", "release": "bad"},` + "\n" +
		"\n" +
		`  {` + "\n" +
		`    "name": "C",` + "\n" +
		`    "poster1_url": "javascript:alert(1)"` + "\n" +
		`  },` + "\n" +
		`  42,` + "\n" +
		`  {"name": "D", "id_code": "X-4"}]`
	s := openStore(t)
	sum := importMovies(t, s, "m.json", input, importer.Options{})
	wantSummary(t, sum, 5, 2, 3)
	wantRejects(t, sum, map[int]string{1: "release:", 3: "poster1_url:", 7: "not a JSON object"})
}

func TestMoviesJSONSyntaxError(t *testing.T) {
	input := "[\n" + `{"name": "A", "id_code": "X-1"},` + "\n" + `{"name": "B" "id_code": "X-2"},` + "\n" + `{"name": "C"}` + "\n]"
	s := openStore(t)
	sum := importMovies(t, s, "m.json", input, importer.Options{})
	if sum.Imported != 1 || sum.Rejected != 1 {
		t.Fatalf("got imported %d rejected %d, want 1 and 1 (rejects %v)", sum.Imported, sum.Rejected, sum.Rejects)
	}
	wantRejects(t, sum, map[int]string{3: "invalid JSON"})
	for _, input := range []string{`{"name": "A"}`, ``, `[{"name": "A"}`, `[{"name": "A"}] x`} {
		sum := importMovies(t, openStore(t), "m.json", input, importer.Options{})
		if sum.Rejected != 1 || len(sum.Rejects) != 1 || sum.Rejects[0].Line != 1 {
			t.Errorf("input %q: got rejects %v (%d), want one on line 1", input, sum.Rejects, sum.Rejected)
		}
	}
}

func TestMoviesCSVHeader(t *testing.T) {
	for _, tc := range []struct{ name, input, want string }{
		{"unknown column", "name,rating\nA,5\n", `unknown column "rating"`},
		{"duplicate column", "name,slug,name\nA,a,A\n", `column "name" appears twice`},
		{"empty column", "name,,slug\nA,,a\n", "column 2 has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			sum := importMovies(t, s, "m.csv", tc.input, importer.Options{})
			wantSummary(t, sum, 0, 0, 1)
			wantRejects(t, sum, map[int]string{1: tc.want})
			if n := len(allMovies(t, s)); n != 0 {
				t.Errorf("stored %d movies, want none", n)
			}
		})
	}
}

func TestMoviesCSVRows(t *testing.T) {
	input := "\xef\xbb\xbfName, ID_CODE ,actor,synopsis\n" +
		"A,C-1,Aiko Tanaka|Kenji Sato,\n" +
		"B,C-2\n" +
		"\"C,\"broken,C-3,x,\n" +
		"D,C-4,,\"two\nlines\"\n" +
		"E,C-5,,\n" +
		"F,C-6,,,\n"
	s := openStore(t)
	sum := importMovies(t, s, "m.csv", input, importer.Options{})
	wantSummary(t, sum, 6, 3, 3)
	wantRejects(t, sum, map[int]string{3: "has 2 fields, the header has 4", 4: "invalid CSV", 8: "has 5 fields"})
	byCode := map[string]catalog.Movie{}
	for _, m := range allMovies(t, s) {
		byCode[m.IDCode] = m
	}
	if got := byCode["C-1"].Lists[1].JSON; got != `["Aiko Tanaka","Kenji Sato"]` {
		t.Errorf("C-1 actor: got %s, want [\"Aiko Tanaka\",\"Kenji Sato\"]", got)
	}
	if got := byCode["C-4"].Synopsis; got != "two\nlines" {
		t.Errorf("C-4 synopsis: got %q, want %q", got, "two\nlines")
	}
	if _, ok := byCode["C-5"]; !ok {
		t.Errorf("C-5 after a multi-line row: not imported")
	}
}

func TestMoviesUpsertKeys(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	importMovies(t, s, "first.jsonl", strings.Join([]string{
		`{"id": 10, "name": "By id", "id_code": "K-10"}`,
		`{"name": "By code", "id_code": "K-20"}`,
		`{"name": "By slug", "slug": "by-slug"}`,
		`{"name": "Derived Slug Movie"}`,
	}, "\n"), importer.Options{})
	before := allMovies(t, s)
	if len(before) != 4 {
		t.Fatalf("stored %d movies, want 4", len(before))
	}
	ids := map[string]int64{}
	for _, m := range before {
		ids[m.Slug] = m.ID
	}
	sum := importMovies(t, s, "second.jsonl", strings.Join([]string{
		`{"id": 10, "name": "By id, renamed", "id_code": "K-10"}`,
		`{"name": "By code, renamed", "id_code": "K-20"}`,
		`{"name": "By slug, renamed", "slug": "by-slug"}`,
		`{"name": "Derived slug movie", "year": "2001"}`,
	}, "\n"), importer.Options{})
	wantSummary(t, sum, 4, 4, 0)
	after := allMovies(t, s)
	if len(after) != 4 {
		t.Fatalf("after re-import: %d movies, want still 4", len(after))
	}
	for _, tc := range []struct {
		id   int64
		name string
	}{
		{10, "By id, renamed"},
		{ids["by-code"], "By code, renamed"},
		{ids["by-slug"], "By slug, renamed"},
		{ids["derived-slug-movie"], "Derived slug movie"},
	} {
		m, err := s.GetMovie(ctx, tc.id)
		if err != nil {
			t.Fatalf("GetMovie(%d): %v", tc.id, err)
		}
		if m.Name != tc.name {
			t.Errorf("movie %d: got name %q, want %q", tc.id, m.Name, tc.name)
		}
	}
}

func TestMoviesSlugDerivation(t *testing.T) {
	s := openStore(t)
	importMovies(t, s, "m.jsonl", `{"name": "Été à Nice!"}`+"\n"+`{"name": "ทะเลยามเย็น"}`, importer.Options{})
	var slugs []string
	for _, m := range allMovies(t, s) {
		slugs = append(slugs, m.Slug)
	}
	want := []string{catalog.Slugify("ทะเลยามเย็น"), "ete-a-nice"}
	if !reflect.DeepEqual(slugs, want) {
		t.Errorf("slugs: got %q, want %q", slugs, want)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	s := openStore(t)
	input := `{"name": "A"}` + "\n" + `{"name": "B", "release": "x"}` + "\n" + `{"name": "C"}` + "\n"
	sum := importMovies(t, s, "m.jsonl", input, importer.Options{DryRun: true})
	wantSummary(t, sum, 3, 2, 1)
	if n := len(allMovies(t, s)); n != 0 {
		t.Errorf("dry run stored %d movies, want 0", n)
	}
	csum, err := importer.Clips(context.Background(), s, defaultPlatforms(t), "c.jsonl",
		strings.NewReader(`{"title": "T", "iframe_url": "https://youtu.be/dQw4w9WgXcQ"}`), importer.Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSummary(t, csum, 1, 1, 0)
	if total, _ := s.CountClips(context.Background()); total != 0 {
		t.Errorf("dry run stored %d clips, want 0", total)
	}
}

func TestBatches(t *testing.T) {
	s := openStore(t)
	var b strings.Builder
	for i := range 25 {
		if i == 12 {
			b.WriteString(`{"name": ""}` + "\n")
			continue
		}
		b.WriteString(`{"name": "Movie ` + string(rune('A'+i)) + `"}` + "\n")
	}
	sum := importMovies(t, s, "m.jsonl", b.String(), importer.Options{BatchSize: 4})
	wantSummary(t, sum, 25, 24, 1)
	wantRejects(t, sum, map[int]string{13: "name: is required"})
	if n := len(allMovies(t, s)); n != 24 {
		t.Errorf("stored %d movies, want 24", n)
	}
}

func TestUnknownExtension(t *testing.T) {
	s := openStore(t)
	for _, name := range []string{"movies.xml", "movies", "movies.txt"} {
		_, err := importer.Movies(context.Background(), s, name, strings.NewReader(`{"name":"A"}`), importer.Options{})
		if err == nil || !strings.Contains(catalog.ErrorMessage(err), "unknown file type") {
			t.Errorf("%s: got error %v, want one about an unknown file type", name, err)
		}
	}
}

func TestRejectsAreBounded(t *testing.T) {
	s := openStore(t)
	input := strings.Repeat(`{"name": ""}`+"\n", importer.MaxReported+5)
	sum := importMovies(t, s, "m.jsonl", input, importer.Options{})
	if sum.Rejected != importer.MaxReported+5 || len(sum.Rejects) != importer.MaxReported {
		t.Errorf("got rejected %d with %d messages, want %d with %d", sum.Rejected, len(sum.Rejects), importer.MaxReported+5, importer.MaxReported)
	}
}

func defaultPlatforms(tb testing.TB) *catalog.Platforms {
	tb.Helper()
	p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestClips(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	input := strings.Join([]string{
		`{"title": "Sunset over the bay", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ", "platform": "JAV"}`,
		`{"title": "", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ"}`,
		`{"title": "Bad url", "iframe_url": "javascript:alert(1)"}`,
		`{"title": "Bad platform", "iframe_url": "https://dai.ly/x7abc", "platform": "Nope"}`,
		`{"id": 500, "title": "With id", "iframe_url": "https://dai.ly/x7abc", "created_at": "2024-01-02T03:04:05+07:00", "cover_url": "https://example.com/c.jpg"}`,
		`{"title": "Bad time", "iframe_url": "https://dai.ly/x7abc", "created_at": "yesterday"}`,
		`{"title": "Extra", "iframe_url": "https://dai.ly/x7abc", "views": 3}`,
		`{"title": 5, "iframe_url": "https://dai.ly/x7abc"}`,
		`{"title": "ทะเลยามเย็น", "iframe_url": "https://example.org/v/1", "notes": "line one\nline two"}`,
		`{"title": "Year -1 in UTC", "iframe_url": "https://dai.ly/x7abc", "created_at": "0000-01-01T00:00:00+01:00"}`,
		`{"title": "Year 10000 in UTC", "iframe_url": "https://dai.ly/x7abc", "created_at": "9999-12-31T23:30:00-01:00"}`,
	}, "\n")
	sum, err := importer.Clips(ctx, s, defaultPlatforms(t), "clips.jsonl", strings.NewReader(input), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantSummary(t, sum, 11, 3, 8)
	wantRejects(t, sum, map[int]string{
		2:  "title: is required",
		3:  "iframe_url: must be an absolute http or https URL",
		4:  "platform: must be one of: JAV",
		6:  "created_at: must be an RFC 3339 timestamp",
		7:  "views: is not a known field",
		8:  "title: must be a string",
		10: "created_at: must be an RFC 3339 timestamp",
		11: "created_at: must be an RFC 3339 timestamp",
	})
	clips, total := storetest.Clips(t, s, catalog.ClipFilter{Paging: catalog.Paging{Page: 1, Limit: 10}})
	if total != 3 {
		t.Fatalf("clip list: got %d clips, want 3", total)
	}
	byTitle := map[string]catalog.Clip{}
	for _, c := range clips {
		byTitle[c.Title] = c
	}
	if c := byTitle["Sunset over the bay"]; c.CoverURL != "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" {
		t.Errorf("derived cover: got %q, want the YouTube thumbnail", c.CoverURL)
	}
	c := byTitle["With id"]
	if c.ID != 500 || c.CoverURL != "https://example.com/c.jpg" || !c.CreatedAt.Equal(time.Date(2024, 1, 1, 20, 4, 5, 0, time.UTC)) {
		t.Errorf("clip with id: got id %d cover %q created %v, want 500, the given cover, 2024-01-01T20:04:05Z", c.ID, c.CoverURL, c.CreatedAt)
	}
	if c := byTitle["ทะเลยามเย็น"]; c.CoverURL != "" || c.Notes != "line one\nline two" {
		t.Errorf("other host: got cover %q notes %q, want no cover and the notes kept", c.CoverURL, c.Notes)
	}
}

func TestClipsCSV(t *testing.T) {
	s := openStore(t)
	input := "title,iframe_url,platform,actor\n" +
		"Morning market,https://youtu.be/dQw4w9WgXcQ,ทวิต,Aiko Tanaka\n" +
		"No URL,,,\n" +
		"Market,https://youtu.be/dQw4w9WgXcQ,JAV,\n"
	sum, err := importer.Clips(context.Background(), s, defaultPlatforms(t), "clips.csv", strings.NewReader(input), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantSummary(t, sum, 3, 2, 1)
	wantRejects(t, sum, map[int]string{3: "iframe_url: is required"})
	sum, _ = importer.Clips(context.Background(), s, defaultPlatforms(t), "clips.csv", strings.NewReader("title,slug\nA,a\n"), importer.Options{})
	wantRejects(t, sum, map[int]string{1: `unknown column "slug"`})
}

// conflictStore refuses any batch holding a movie named "Taken", as a
// store with a unique key would; SQLite has no such key on movies, so
// this is the one place a wrapper stands in.
type conflictStore struct{ catalog.MovieStore }

func (c conflictStore) UpsertMovies(ctx context.Context, ms []catalog.Movie) error {
	for _, m := range ms {
		if m.Name == "Taken" {
			return catalog.Errorf(catalog.ECONFLICT, "slug: already taken")
		}
	}
	return c.MovieStore.UpsertMovies(ctx, ms)
}

func TestStoreRefusalBlamesOneRecord(t *testing.T) {
	s := openStore(t)
	input := `{"name": "A"}` + "\n" + `{"name": "Taken"}` + "\n" + `{"name": "C"}` + "\n"
	sum := importMovies(t, conflictStore{s}, "m.jsonl", input, importer.Options{})
	wantSummary(t, sum, 3, 2, 1)
	wantRejects(t, sum, map[int]string{2: "slug: already taken"})
	if n := len(allMovies(t, s)); n != 2 {
		t.Errorf("stored %d movies, want 2", n)
	}
}

// failingStore answers EUNAVAILABLE from its failAt-th write on, as a
// database that went away in the middle of an import.
type failingStore struct {
	catalog.MovieStore
	calls  *int
	failAt int
}

func (f failingStore) UpsertMovies(ctx context.Context, ms []catalog.Movie) error {
	*f.calls++
	if *f.calls >= f.failAt {
		return catalog.Errorf(catalog.EUNAVAILABLE, "database unavailable")
	}
	return f.MovieStore.UpsertMovies(ctx, ms)
}

// Batches are written while the next one is decoded; what every write
// did still reaches the summary, rejections come in line order, and a
// database failure stops the import with its error.
func TestPipelinedBatches(t *testing.T) {
	s := openStore(t)
	// Line 2 is refused by the store in the background, after line 4 was
	// already rejected by validation.
	input := `{"name": "A"}` + "\n" + `{"name": "Taken"}` + "\n" + `{"name": "C"}` + "\n" +
		`{"name": ""}` + "\n" + `{"name": "E"}` + "\n"
	sum := importMovies(t, conflictStore{s}, "m.jsonl", input, importer.Options{BatchSize: 2})
	wantSummary(t, sum, 5, 3, 2)
	if len(sum.Rejects) != 2 || sum.Rejects[0].Line != 2 || sum.Rejects[1].Line != 4 {
		t.Errorf("rejects %+v, want lines 2 then 4", sum.Rejects)
	}

	calls := 0
	down := failingStore{MovieStore: openStore(t), calls: &calls, failAt: 2}
	input = `{"name": "A"}` + "\n" + `{"name": "B"}` + "\n" + `{"name": "C"}` + "\n" + `{"name": "D"}` + "\n" + `{"name": "E"}` + "\n"
	sum, err := importer.Movies(context.Background(), down, "m.jsonl", strings.NewReader(input), importer.Options{BatchSize: 2})
	if catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
		t.Fatalf("got error %v, want EUNAVAILABLE", err)
	}
	if sum.Imported != 2 {
		t.Errorf("imported %d, want the 2 of the first batch", sum.Imported)
	}
	if n := len(allMovies(t, down.MovieStore)); n != 2 {
		t.Errorf("stored %d movies, want 2", n)
	}
}
