package importer_test

import (
	"testing"

	"catalog/internal/importer"
)

// runtime_minutes, an integer member of the field table, is read from
// JSON numbers, strings of digits and CSV cells; empty is 0; anything
// else, or a value past 10000, rejects the record naming the member.
func TestMovieRuntimeMember(t *testing.T) {
	s := openStore(t)
	input := `{"id": 1, "name": "A", "runtime_minutes": 95}
{"id": 2, "name": "B", "runtime_minutes": " 96 "}
{"id": 3, "name": "C", "runtime_minutes": ""}
{"id": 4, "name": "D", "runtime_minutes": "ninety"}
{"id": 5, "name": "E", "runtime_minutes": 10001}
{"id": 6, "name": "F", "runtime_minutes": 9.5}
{"id": 7, "name": "G", "runtime_minutes": [1]}
`
	sum := importMovies(t, s, "movies.jsonl", input, importer.Options{})
	wantSummary(t, sum, 7, 3, 4)
	wantRejects(t, sum, map[int]string{4: "runtime_minutes: must be a whole number", 5: "runtime_minutes: must be a whole number from 0 to 10000",
		6: "runtime_minutes: must be a whole number", 7: "runtime_minutes: must be a whole number"})
	csv := "id,name,runtime_minutes\n8,H,120\n9,I,\n"
	wantSummary(t, importMovies(t, s, "movies.csv", csv, importer.Options{}), 2, 2, 0)
	want := map[int64]int64{1: 95, 2: 96, 3: 0, 8: 120, 9: 0}
	for _, m := range allMovies(t, s) {
		if m.RuntimeMinutes != want[m.ID] {
			t.Errorf("movie %d: runtime %d, want %d", m.ID, m.RuntimeMinutes, want[m.ID])
		}
	}
}
