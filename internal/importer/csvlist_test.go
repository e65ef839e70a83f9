package importer_test

import (
	"testing"

	"catalog/internal/importer"
)

// TestMoviesCSVListForms pins how a CSV list cell is read, the rules
// that export relies on: "|" separates items, a cell without "|" falls
// back to commas, a trailing "|" keeps one item that holds a comma, and
// a cell that is a JSON array of strings is that array (items holding
// "|"); anything else starting with "[" is an ordinary cell.
func TestMoviesCSVListForms(t *testing.T) {
	for _, tc := range []struct{ name, cell, want string }{
		{"pipes", `Drama|Action`, `["Drama","Action"]`},
		{"commas without a pipe", `"Drama, Action"`, `["Drama","Action"]`},
		{"one item with a comma", `"Smith, John|"`, `["Smith, John"]`},
		{"json array", `"[""a|b"",""c, d""]"`, `["a|b","c, d"]`},
		{"json array with spaces", `" [""x""] "`, `["x"]`},
		{"bracket text", `[Uncut]|Drama`, `["[Uncut]","Drama"]`},
		{"not an array of strings", `"[1,2]"`, `["[1","2]"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			sum := importMovies(t, s, "m.csv", "name,categories\nA,"+tc.cell+"\n", importer.Options{})
			wantSummary(t, sum, 1, 1, 0)
			if got := allMovies(t, s)[0].Lists[0].JSON; got != tc.want {
				t.Errorf("cell %s: got %s, want %s", tc.cell, got, tc.want)
			}
		})
	}
}

// TestProgressHook checks that Options.Progress hears of every record
// read, rejected ones included.
func TestProgressHook(t *testing.T) {
	calls := 0
	opts := importer.Options{Progress: func() { calls++ }, BatchSize: 2}
	sum := importMovies(t, openStore(t), "m.jsonl", "{\"name\":\"A\"}\n{\"name\":\"\"}\n{\"name\":\"C\"}\n", opts)
	wantSummary(t, sum, 3, 2, 1)
	if calls != 3 {
		t.Errorf("Progress calls: got %d, want 3", calls)
	}
}
