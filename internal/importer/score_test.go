package importer_test

import (
	"testing"

	"catalog/internal/importer"
)

// score and douban_id (contract 12) are read from JSON strings and
// numbers and from CSV cells, stored in their normal form; a value out
// of their form rejects the record, naming the member.
func TestMovieScoreMembers(t *testing.T) {
	s := openStore(t)
	input := `{"id": 1, "name": "A", "score": 8.5, "douban_id": 1292052}
{"id": 2, "name": "B", "score": " 7 ", "douban_id": "0030166972"}
{"id": 3, "name": "C", "score": "", "douban_id": null}
{"id": 4, "name": "D", "score": "10.5"}
{"id": 5, "name": "E", "score": 7.25}
{"id": 6, "name": "F", "douban_id": "tt0111161"}
{"id": 7, "name": "G", "douban_id": 1.5}
{"id": 8, "name": "H", "score": [8]}
`
	sum := importMovies(t, s, "movies.jsonl", input, importer.Options{})
	wantSummary(t, sum, 8, 3, 5)
	wantRejects(t, sum, map[int]string{
		4: "score: must be a number from 0.0 to 10.0", 5: "score: must be a number from 0.0 to 10.0",
		6: "douban_id: must be the digits of a Douban id", 7: "douban_id: must be the digits of a Douban id",
		8: "score: must be a string"})
	csv := "id,name,score,douban_id\n9,I,9.0,26752088\n10,J,,\n"
	wantSummary(t, importMovies(t, s, "movies.csv", csv, importer.Options{}), 2, 2, 0)
	want := map[int64][2]string{1: {"8.5", "1292052"}, 2: {"7.0", "30166972"}, 3: {"", ""}, 9: {"9.0", "26752088"}, 10: {"", ""}}
	for _, m := range allMovies(t, s) {
		if got := [2]string{m.Score, m.DoubanID}; got != want[m.ID] {
			t.Errorf("movie %d: score and douban_id %q, want %q", m.ID, got, want[m.ID])
		}
	}
}
