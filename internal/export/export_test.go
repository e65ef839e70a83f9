package export_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/export"
	"catalog/internal/sqlite"
)

// TestListCell pins the CSV list cells (package comment): "|" between
// items, a trailing "|" after one item holding a comma, a JSON array
// when "|" cannot carry the items or the cell would read as JSON.
func TestListCell(t *testing.T) {
	for _, tc := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"Drama"}, "Drama"},
		{[]string{"Drama", "Action, Thriller"}, "Drama|Action, Thriller"},
		{[]string{"Smith, John"}, "Smith, John|"},
		{[]string{"a|b", "c"}, `["a|b","c"]`},
		{[]string{`["x"]`}, `["[\"x\"]"]`},
		{[]string{"[Uncut]", "Drama"}, `["[Uncut]","Drama"]`},
		{[]string{"Drama", "[Uncut]"}, "Drama|[Uncut]"},
		{[]string{`Quote "q"`, `back\slash`}, `Quote "q"|back\slash`},
		{[]string{"รักแท้", "日本"}, "รักแท้|日本"},
	} {
		if got := export.ListCell(catalog.NewList(tc.items)); got != tc.want {
			t.Errorf("ListCell(%q): got %q, want %q", tc.items, got, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]export.Format{"jsonl": export.JSONL, "ndjson": export.JSONL, "CSV": export.CSV} {
		if got, err := export.ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q): got %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := export.ParseFormat("xml"); err == nil {
		t.Errorf("ParseFormat(xml): got no error")
	}
}

// BenchmarkExportMovies measures the export of 20,000 movies from a
// SQLite file, per movie (b.N walks of the whole catalog).
func BenchmarkExportMovies(b *testing.B) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	const n = 20000
	movies := make([]catalog.Movie, n)
	for i := range movies {
		m := &movies[i]
		m.Name = fmt.Sprintf("Movie number %d, with a comma", i)
		m.IDCode = fmt.Sprintf("B-%d", i)
		m.Synopsis = "A synopsis of some length.\nIn two lines."
		m.Poster1URL = "https://img.example.com/p.jpg"
		m.Lists[0] = catalog.NewList([]string{"Drama", "Action, Thriller"})
		m.Lists[1] = catalog.NewList([]string{"Aiko Tanaka", "Kenji Sato"})
		m.Lists[5] = catalog.NewList([]string{"Japan"})
		if err := m.Normalize(); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		b.Fatal(err)
	}
	for _, f := range []export.Format{export.JSONL, export.CSV} {
		b.Run(f.String(), func(b *testing.B) {
			for b.Loop() {
				if got, err := export.Movies(ctx, s, io.Discard, f, nil); err != nil || got != n {
					b.Fatalf("got %d, %v", got, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/movie")
		})
	}
}
