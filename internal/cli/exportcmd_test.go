package cli_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/sqlite"
)

// Every kind of value an export has to carry: Thai and other scripts,
// quotes, commas, "|" and newlines in cells, list items holding commas
// or "|" or starting with "[", backslashes, empty lists and empty
// strings, and ids with gaps.
const roundTripMovies = `{"id": 3, "name": "รักแท้ \"ไม่มี\" จริง", "year": "2019", "categories": ["ดราม่า", "Action, Thriller", "Comedy"], "actor": ["สมชาย ใจดี", "Aiko \"A\" Tanaka"], "director": ["Smith, John"], "studio": ["a|b", "c"], "genre": ["[Uncut]", "Drama"], "country": ["TH"], "synopsis": "Line one, with a comma.\nLine \"two\" | piped\n\n\tTabbed, C:\\path\\ and ✓", "id_code": "ABC-001", "release": "2019-05-01", "score": "8.5", "douban_id": 1292052, "poster1_url": "https://img.example.com/p.jpg?a=1,2&b=%223%22", "poster2_url": "https://img.example.com/p2.jpg", "link_embed": "https://player.example.com/e/1?x=a|b"}
{"id": 10, "name": "Bare"}
{"id": 11, "name": "Quote, comma | pipe", "slug": "custom-slug", "categories": ["One, only"], "actor": ["x|y"], "director": ["[not json"], "studio": ["[\"x\"]"], "genre": ["Drama", "[Uncut]"], "synopsis": ""}
{"id": 1000000, "name": "日本語のタイトル", "categories": [], "actor": [], "country": ["JP", "TH"], "year": "", "release": "", "episodes": [{"server_name": "Main \"1\", | ตอน", "server_data": [{"name": "Ep 1 $#", "link_embed": "https://p.example/e/1?a=$b#c", "link_m3u8": "https://cdn.example/1/index.m3u8"}, {"name": "ตอนที่ 2", "slug": "two", "link_m3u8": "https://cdn.example/2.m3u8?x=a|b,c"}]}, {"server_name": "Backup", "server_data": [{"name": "Ep 1", "link_embed": "https://b.example/1"}]}]}
`

const roundTripClips = `{"id": 2, "created_at": "2024-01-02T03:04:05Z", "title": "คลิป \"ทดสอบ\", หนึ่ง | สอง", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ", "platform": "คลิปหลุด", "notes": "line one\nline, two\t\"tab\"\n|"}
{"id": 5, "created_at": "2020-02-29T23:59:59Z", "title": "No cover", "iframe_url": "https://media.example.org/embed/1?a=1,2", "actor": "", "studio": "", "platform": "", "notes": ""}
{"id": 9, "created_at": "2026-11-21T13:45:07Z", "title": "Given cover", "iframe_url": "https://www.dailymotion.com/embed/video/x7abc", "cover_url": "https://covers.example.com/c.jpg?x=%221%22", "actor": "Smith, John", "studio": "A|B", "platform": "JAV", "notes": "[not a list]"}
`

// TestExportRoundTrip exports a catalog in both formats, imports each
// export into an empty database and checks that every record, and so
// every API answer built from it, is the same (contract 1: export).
func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	engines := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return migrated(t, filepath.Join(t.TempDir(), "db.sqlite")) },
		"postgres": func(t *testing.T) string { return pgtest.EmptyDSN(t) },
	}
	for engine, newDSN := range engines {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			src := newDSN(t)
			for kind, data := range map[string]string{"movies": roundTripMovies, "clips": roundTripClips} {
				file := filepath.Join(dir, "source-"+kind+".jsonl")
				if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
				wantExit(t, run(t, nil, "", "import", kind, "--db", src, file), 0)
			}
			for _, format := range []string{"jsonl", "csv"} {
				t.Run(format, func(t *testing.T) {
					dst := newDSN(t)
					for _, kind := range []string{"movies", "clips"} {
						out := filepath.Join(dir, engine+"-"+kind+"."+format)
						r := run(t, nil, "", "export", kind, "--db", src, "--out", out)
						wantExit(t, r, 0)
						if r.stderr != "" {
							t.Errorf("export %s wrote on stderr off a terminal with nothing to report: %q", kind, r.stderr)
						}
						wantExit(t, run(t, nil, "", "import", kind, "--db", dst, out), 0)
						// Exported again, the imported catalog gives the
						// same bytes.
						again := filepath.Join(dir, engine+"-"+kind+"-again."+format)
						wantExit(t, run(t, nil, "", "export", kind, "--db", dst, "--out", again), 0)
						first, err1 := os.ReadFile(out)
						second, err2 := os.ReadFile(again)
						if err1 != nil || err2 != nil || !bytes.Equal(first, second) {
							t.Errorf("export, import, export of %s: the two exports differ (%v, %v):\n%s\n%s", kind, err1, err2, first, second)
						}
					}
					wantSameCatalog(t, openDSN(t, src), openDSN(t, dst))
				})
			}
		})
	}
}

func openDSN(t *testing.T, dsn string) catalog.Store {
	t.Helper()
	ctx := context.Background()
	var s interface {
		catalog.Store
		Migrate(context.Context) error
	}
	var err error
	if strings.HasPrefix(dsn, "postgres") {
		s, err = postgres.Open(ctx, dsn, postgres.Options{})
	} else {
		s, err = sqlite.Open(ctx, dsn, sqlite.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// cancelWriter calls cancel at the first write.
type cancelWriter context.CancelFunc

func (c cancelWriter) Write(p []byte) (int, error) {
	c()
	return len(p), nil
}

// wantSameCatalog compares every movie and clip of two stores: the
// records (all but the movies' UpdatedAt, which an import sets) and the
// JSON the APIs serve for them.
func wantSameCatalog(t *testing.T, a, b catalog.Store) {
	t.Helper()
	ctx := context.Background()
	movies := func(s catalog.Store) (list []catalog.Movie) {
		if err := s.ExportMovies(ctx, func(m *catalog.Movie) error {
			list = append(list, *m)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return list
	}
	clips := func(s catalog.Store) (list []catalog.Clip) {
		if err := s.ExportClips(ctx, func(c *catalog.Clip) error {
			list = append(list, *c)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return list
	}
	am, bm := movies(a), movies(b)
	if len(am) != 4 || len(bm) != len(am) {
		t.Fatalf("movies: got %d after the round trip, %d before; want 4", len(bm), len(am))
	}
	for i := range am {
		want, got := am[i], bm[i]
		want.UpdatedAt = got.UpdatedAt
		// SQLite keeps a list that an import left out as "", which
		// serves as [] like a stored "[]".
		for _, m := range []*catalog.Movie{&want, &got} {
			for i := range m.Lists {
				if m.Lists[i].JSON == "" {
					m.Lists[i].JSON = "[]"
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("movie %d:\n got %+v\nwant %+v", want.ID, got, want)
		}
		for _, legacy := range []bool{false, true} {
			fs := catalog.AllFields(legacy)
			if g, w := got.AppendJSON(nil, fs, legacy), want.AppendJSON(nil, fs, legacy); !bytes.Equal(g, w) {
				t.Errorf("movie %d JSON (legacy %v):\n got %s\nwant %s", want.ID, legacy, g, w)
			}
		}
	}
	ac, bc := clips(a), clips(b)
	if len(ac) != 3 || len(bc) != len(ac) {
		t.Fatalf("clips: got %d after the round trip, %d before; want 3", len(bc), len(ac))
	}
	for i := range ac {
		if ac[i] != bc[i] {
			t.Errorf("clip %d:\n got %+v\nwant %+v", ac[i].ID, bc[i], ac[i])
		}
		if g, w := bc[i].AppendJSON(nil), ac[i].AppendJSON(nil); !bytes.Equal(g, w) {
			t.Errorf("clip %d JSON:\n got %s\nwant %s", ac[i].ID, g, w)
		}
	}
}

// TestExportForms pins the output forms: JSON Lines records with the
// import's member names in contract order, lowest id first; CSV with a
// header and the list cells the importer reads.
func TestExportForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "db.sqlite"))
	file := filepath.Join(dir, "m.jsonl")
	if err := os.WriteFile(file, []byte(roundTripMovies), 0o644); err != nil {
		t.Fatal(err)
	}
	wantExit(t, run(t, nil, "", "import", "movies", "--db", db, file), 0)

	r := run(t, nil, "", "export", "movies", "--db", db)
	wantExit(t, r, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("JSON Lines on stdout: got %d lines, want 4:\n%s", len(lines), r.stdout)
	}
	if want := `{"id":10,"name":"Bare","slug":"bare","year":"","poster1_url":"","poster2_url":"","categories":[],"actor":[],"director":[],"studio":[],"genre":[],"country":[],"synopsis":"","id_code":"","release":"","score":"","douban_id":"","episodes":[]}`; lines[1] != want {
		t.Errorf("record 2:\n got %s\nwant %s", lines[1], want)
	}
	var ids []int64
	for _, l := range lines {
		var rec struct{ ID int64 }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("not JSON: %s", l)
		}
		ids = append(ids, rec.ID)
	}
	if want := []int64{3, 10, 11, 1000000}; !equalIDs(ids, want) {
		t.Errorf("order: got %v, want %v", ids, want)
	}
	if !strings.Contains(r.stderr, "exported 4 movies to stdout") {
		t.Errorf("summary on stderr: got %q", r.stderr)
	}

	r = run(t, nil, "", "export", "movies", "--db", db, "--format", "csv")
	wantExit(t, r, 0)
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := "id,name,slug,year,poster1_url,poster2_url,categories,actor,director,studio,genre,country,synopsis,id_code,release,score,douban_id,episodes"
	if got := strings.Join(rows[0], ","); got != wantHeader {
		t.Errorf("CSV header:\n got %s\nwant %s", got, wantHeader)
	}
	// col is the cell of column name in row: the columns are found by
	// the header, so that a new field moves none of these.
	col := func(row int, name string) string { return rows[row][slices.Index(rows[0], name)] }
	cells := map[string]string{
		"categories 3": col(1, "categories"), "studio 3": col(1, "studio"), "genre 3": col(1, "genre"), "director 3": col(1, "director"),
		"categories 11": col(3, "categories"), "genre 11": col(3, "genre"), "director 11": col(3, "director"), "actor 10": col(2, "actor"),
		"episodes 10": col(2, "episodes"), "episodes 3": col(1, "episodes"),
	}
	for name, want := range map[string]string{
		"categories 3":  "ดราม่า|Action, Thriller|Comedy",
		"director 3":    "Smith, John|",
		"studio 3":      `["a|b","c"]`,
		"genre 3":       `["[Uncut]","Drama"]`,
		"categories 11": "One, only|",
		"genre 11":      "Drama|[Uncut]",
		"director 11":   `["[not json"]`,
		"actor 10":      "",
		"episodes 10":   "",
		"episodes 3":    `[{"server_name":"Main","server_data":[{"name":"Full","slug":"full","link_embed":"https://player.example.com/e/1?x=a|b","link_m3u8":""}]}]`,
	} {
		if cells[name] != want {
			t.Errorf("CSV %s: got %q, want %q", name, cells[name], want)
		}
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestExportFile checks the file side: the format follows the
// extension, a contradicting --format or .json is refused before
// anything is written, and a failed export leaves no file behind.
func TestExportFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "db.sqlite"))
	wantExit(t, run(t, nil, "", "seed", "--db", db, "--movies", "2000", "--quiet"), 0)

	out := filepath.Join(dir, "m.csv")
	wantExit(t, run(t, nil, "", "export", "movies", "--db", db, "--out", out), 0)
	if b, _ := os.ReadFile(out); !bytes.HasPrefix(b, []byte("id,name,")) {
		t.Errorf("--out m.csv: got %.40q, want CSV", b)
	}
	for _, args := range [][]string{
		{"--out", filepath.Join(dir, "x.csv"), "--format", "jsonl"},
		{"--out", filepath.Join(dir, "x.json")},
		{"--format", "xml"},
		{"--out", dir},
	} {
		r := run(t, nil, "", append([]string{"export", "movies", "--db", db}, args...)...)
		wantExit(t, r, 2)
	}
	// A missing folder: the export fails and leaves nothing.
	r := run(t, nil, "", "export", "clips", "--db", db, "--out", filepath.Join(dir, "missing", "c.jsonl"))
	wantExit(t, r, 1)
	// An export that fails half-way (cancelled at its first progress
	// line): the temporary file goes, the old file stays.
	full := filepath.Join(dir, "keep.jsonl")
	if err := os.WriteFile(full, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &cli.Program{Getenv: envFunc(nil), Stdout: io.Discard, Stderr: cancelWriter(cancel)}
	err := p.Run(ctx, []string{"export", "movies", "--db", db, "--out", full, "--progress-every", "1ns"})
	if err == nil {
		t.Fatalf("export cancelled half-way: got success")
	}
	if b, _ := os.ReadFile(full); string(b) != "old" {
		t.Errorf("the old file changed: %.40q", b)
	}
	wantOnly(t, dir, "db.sqlite", "db.sqlite-shm", "db.sqlite-wal", "m.csv", "keep.jsonl")
}

// wantOnly fails when dir holds anything but names (a temporary file
// left behind).
func wantOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		found := false
		for _, n := range names {
			found = found || e.Name() == n
		}
		if !found {
			t.Errorf("%s holds %s, want only %v", dir, e.Name(), names)
		}
	}
}

// import --merge changes only the members each record gives, on both
// engines; without it a record replaces the whole movie and re-derives
// its slug (contract 4.6, the README's rule).
func TestImportMerge(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			dsn := filepath.Join(dir, "m.db")
			if engine == "postgres" {
				dsn = pgtest.EmptyDSN(t)
			} else {
				migrated(t, dsn)
			}
			env := map[string]string{"CATALOG_DB": dsn}
			wantExit(t, run(t, env, "", "import", "movies", filepath.Join("..", "..", "examples", "movies.jsonl")), 0)
			before := exportLines(t, env)

			patch := filepath.Join(dir, "patch.jsonl")
			os.WriteFile(patch, []byte(`{"id": 1, "synopsis": "Rewritten."}`+"\n"+
				`{"id_code": "GHI-007", "title": "Renamed", "actor": ["New Actor"]}`+"\n"+
				`{"id_code": "NEW-001", "name": "Brand new"}`+"\n"), 0o600)
			wantExit(t, run(t, env, "", "import", "movies", "--merge", patch), 0)
			after := exportLines(t, env)
			if len(after) != 4 {
				t.Fatalf("after merge: %d movies, want 4 (one added)", len(after))
			}
			want := func(i int, changed map[string]any) {
				t.Helper()
				for k, v := range before[i] {
					w := v
					if c, ok := changed[k]; ok {
						w = c
					}
					if fmt.Sprint(after[i][k]) != fmt.Sprint(w) {
						t.Errorf("movie %v member %s: got %v, want %v", before[i]["id"], k, after[i][k], w)
					}
				}
			}
			want(0, map[string]any{"synopsis": "Rewritten."})
			want(2, map[string]any{"name": "Renamed", "actor": []any{"New Actor"}})
			if after[3]["name"] != "Brand new" || after[3]["id_code"] != "NEW-001" {
				t.Errorf("added movie: %v", after[3])
			}

			// Without --merge the record replaces the movie.
			os.WriteFile(patch, []byte(`{"id": 1, "name": "Only a name"}`+"\n"), 0o600)
			wantExit(t, run(t, env, "", "import", "movies", patch), 0)
			if m := exportLines(t, env)[0]; m["synopsis"] != "" || m["slug"] != "only-a-name" {
				t.Errorf("plain import: got %v, want the movie replaced and its slug re-derived", m)
			}
			r := run(t, env, "", "import", "clips", "--merge", patch)
			wantExit(t, r, 2)
		})
	}
}

// exportLines is "catalog export movies" decoded, lowest id first.
func exportLines(t *testing.T, env map[string]string) []map[string]any {
	t.Helper()
	r := run(t, env, "", "export", "movies")
	wantExit(t, r, 0)
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
