package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// importNames pick the decoder: JSON Lines, JSON array, CSV.
var importNames = []string{"x.jsonl", "x.json", "x.csv"}

// importSeeds are inputs of every format, some nasty, for both targets.
var importSeeds = []struct {
	format uint8
	in     string
}{
	{0, `{"id": 1, "name": "A", "year": 2019, "actor": ["x", "y"], "genre": "a, b", "release": "2019-05-01"}` + "\n\n" + `{"title": "B"}`},
	{0, "\xef\xbb\xbf{\"name\": \"A\\u0000B\"}\n{\"name\": \"\xff\"}\n{\"id\": -1, \"name\": \"C\"}\n{\"id\": 99999999999999999999, \"name\": \"D\"}"},
	{0, `{"name": "A", "nope": 1}` + "\n" + `[1]` + "\n" + `{"name": "A", "title": "B"}` + "\n" + `{"name": "x", "release": "2019-02-30"}`},
	{0, `{"name":"A","poster1_url":"javascript:x","link_embed":"https://p.example/e/1","id":"+5"}`},
	{1, "[\n{\"name\": \"A\"},\n{\"name\": \"B\" \"x\": 1}\n]"},
	{1, `[{"name": "A"}] x`}, {1, ``}, {1, `[`}, {1, `{"name": "A"}`}, {1, `[null, 1, "x", {"name": {"a": 1}}]`},
	{2, "id,name,actor,genre\n1,A,x|y,\"a, b\"\n-2,B,,\n3,\"C\nD\",z\n"},
	{2, "name,name\nA,B\n"}, {2, "name,bogus\n"}, {2, ",name\n"}, {2, "name\n\"A\n"}, {2, "\xef\xbb\xbfNAME , year\n\x00,\xff\n"},
	{2, "name,created_at,title,iframe_url,platform\nA,2026-11-21T13:45:07Z,T,https://youtu.be/dQw4w9WgXcQ,JAV\n"},
}

// checkImport runs one import through the real pipeline, keeping what
// would be written, and checks the summary's bookkeeping.
func checkImport[T any](t *testing.T, format uint8, in []byte, columns []string, build func(record) (T, catalog.FieldErrors)) []T {
	t.Helper()
	var written []T
	write := func(_ context.Context, batch []T) error {
		written = append(written, batch...)
		return nil
	}
	name := importNames[int(format)%len(importNames)]
	sum, err := run(context.Background(), name, bytes.NewReader(in), Options{BatchSize: 3}, columns, build, write)
	if err != nil {
		t.Fatalf("%s %q: got error %v; bad input must only reject records", name, in, err)
	}
	if sum.Imported != len(written) || sum.Imported > sum.Read || sum.Imported+sum.Rejected < sum.Read {
		t.Fatalf("%s %q: read %d, imported %d, rejected %d, written %d", name, in, sum.Read, sum.Imported, sum.Rejected, len(written))
	}
	lines := bytes.Count(in, []byte("\n")) + 1
	for _, r := range sum.Rejects {
		if r.Line < 1 || r.Line > lines || r.Message == "" {
			t.Fatalf("%s %q: reject %+v outside the input's %d lines", name, in, r, lines)
		}
	}
	return written
}

// FuzzImportMovies: every accepted movie is valid (normalising it again
// changes nothing) and comes back unchanged when written out as an
// import record and read again.
func FuzzImportMovies(f *testing.F) {
	for _, s := range importSeeds {
		f.Add(s.format, []byte(s.in))
	}
	f.Fuzz(func(t *testing.T, format uint8, in []byte) {
		for _, m := range checkImport(t, format, in, movieColumns, movieFromRecord) {
			again := m
			if err := again.Normalize(); err != nil || !reflect.DeepEqual(again, m) {
				t.Fatalf("%q: accepted movie %+v is not normal: %+v, %v", in, m, again, err)
			}
			if m.Name == "" || m.ID < 0 || !utf8.ValidString(m.Name) {
				t.Fatalf("%q: accepted movie %+v", in, m)
			}
			if m.Release != "" {
				if _, err := time.Parse("2006-01-02", m.Release); err != nil {
					t.Fatalf("%q: accepted release %q", in, m.Release)
				}
			}
			rec := map[string]any{"name": m.Name, "slug": m.Slug, "year": m.Year, "poster1_url": m.Poster1URL,
				"poster2_url": m.Poster2URL, "synopsis": m.Synopsis, "id_code": m.IDCode, "release": m.Release}
			if m.Episodes != nil {
				rec["episodes"] = json.RawMessage(catalog.EpisodesJSON(m.Episodes))
			}
			if m.ID != 0 {
				rec["id"] = m.ID
			}
			for i, l := range m.Lists {
				if l.JSON != "" { // the zero List: the member was absent
					rec[catalog.ListNames[i]] = json.RawMessage(l.JSON)
				}
			}
			b, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			back, fe := movieFromRecord(objectRecord(1, b))
			if len(fe) > 0 || !reflect.DeepEqual(back, m) {
				t.Fatalf("%q: movie %+v written as %s reads back as %+v (%v)", in, m, b, back, fe)
			}
		}
	})
}

// FuzzImportClips: every accepted clip keeps contract 3.5's limits,
// written out here, and reads back unchanged from its own JSON.
func FuzzImportClips(f *testing.F) {
	for _, s := range importSeeds {
		f.Add(s.format, []byte(s.in))
	}
	f.Add(uint8(0), []byte(`{"title": " T ", "iframe_url": "https://youtu.be/dQw4w9WgXcQ", "platform": "JAV", "created_at": "2026-11-21T13:45:07+07:00", "id": 3}`))
	f.Add(uint8(0), []byte(`{"title": "T", "iframe_url": "https://x.example/", "notes": "a\r\nb\u0007", "created_at": "yesterday"}`))
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		f.Fatal(err)
	}
	build := func(rec record) (catalog.Clip, catalog.FieldErrors) { return clipFromRecord(rec, platforms) }
	f.Fuzz(func(t *testing.T, format uint8, in []byte) {
		for _, c := range checkImport(t, format, in, clipColumns, build) {
			for name, v := range map[string]struct {
				s   string
				max int
			}{"title": {c.Title, 300}, "actor": {c.Actor, 200}, "studio": {c.Studio, 200}, "notes": {c.Notes, 5000}} {
				if !utf8.ValidString(v.s) || utf8.RuneCountInString(v.s) > v.max || v.s != strings.TrimSpace(v.s) {
					t.Fatalf("%q: accepted %s %q", in, name, v.s)
				}
			}
			if c.Title == "" || c.ID < 0 || c.IframeURL == "" || len(c.IframeURL) > 2048 || len(c.CoverURL) > 2048 {
				t.Fatalf("%q: accepted clip %+v", in, c)
			}
			if !c.CreatedAt.IsZero() && (c.CreatedAt.Location() != time.UTC || c.CreatedAt.Nanosecond() != 0) {
				t.Fatalf("%q: created_at %v not in whole UTC seconds", in, c.CreatedAt)
			}
			b := c.AppendJSON(nil)
			if c.ID == 0 {
				b = bytes.Replace(b, []byte(`"id":0,`), nil, 1)
			}
			if c.CreatedAt.IsZero() {
				b = bytes.Replace(b, []byte(`,"created_at":"0001-01-01T00:00:00Z"`), nil, 1)
			}
			back, fe := clipFromRecord(objectRecord(1, b), platforms)
			if len(fe) > 0 || back != c {
				t.Fatalf("%q: clip %+v written as %s reads back as %+v (%v)", in, c, b, back, fe)
			}
		}
	})
}
