package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/export"
	"catalog/internal/importer"
	"catalog/internal/sqlite"
)

func openStore(tb testing.TB) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "catalog.db"), sqlite.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return s
}

// CSV export is safe to open in a spreadsheet: a cell starting with =,
// +, -, @ (a tab or CR cannot start a stored value: text is trimmed) is
// written with a leading "'", and importing the file gives every value
// back, so a second export is byte for byte the first.
func TestCSVFormulaCellsEscapedAndRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := openStore(t)
	names := []string{`=HYPERLINK("http://evil.example","click")`, "@SUM(A1:A9)", "-2+3", "+1", "'=already quoted", "''@twice",
		"'Til Death", "Plain"}
	var movies []catalog.Movie
	for i, name := range names {
		m := catalog.Movie{Name: name, IDCode: "F-" + string(rune('A'+i)), Synopsis: "=1+1\nsecond line",
			Lists: [catalog.NumLists]catalog.List{catalog.NewList([]string{"=cmd|' /C calc'!A0"}), catalog.NewList([]string{"@actor", "-dash"})}}
		if err := m.Normalize(); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		movies = append(movies, m)
	}
	if err := src.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if _, err := export.Movies(ctx, src, &first, export.CSV, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(first.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		for _, cell := range row {
			rest := strings.TrimLeft(cell, "'")
			if rest != "" && strings.ContainsRune("=+-@\t\r", rune(rest[0])) && !strings.HasPrefix(cell, "'") {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
	}
	for _, want := range []string{`"'=HYPERLINK(""http://evil.example"",""click"")"`, "'@SUM(A1:A9)", "'-2+3", "'+1",
		"''=already quoted", "'''@twice", ",'Til Death,", "'=1+1", "'@actor|-dash"} {
		if !strings.Contains(first.String(), want) {
			t.Errorf("export does not hold %q:\n%s", want, first.String())
		}
	}

	dst := openStore(t)
	sum, err := importer.Movies(ctx, dst, "movies.csv", bytes.NewReader(first.Bytes()), importer.Options{})
	if err != nil || sum.Imported != len(names) {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	var second bytes.Buffer
	if _, err := export.Movies(ctx, dst, &second, export.CSV, nil); err != nil {
		t.Fatal(err)
	}
	if second.String() != first.String() {
		t.Fatalf("round trip not byte-exact:\nfirst:\n%s\nsecond:\n%s", first.String(), second.String())
	}
}
