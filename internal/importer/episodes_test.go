package importer_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

const seriesEpisodes = `[{"server_name":"Main","server_data":[` +
	`{"name":"Ep 1","link_embed":"https://p.example/e/1","link_m3u8":"https://cdn.example/1.m3u8"},` +
	`{"name":"ตอนที่ 2","slug":"two","link_m3u8":"https://cdn.example/2.m3u8?a=$b#c"}]},` +
	`{"server_name":"Backup","server_data":[{"name":"Ep 1","link_m3u8":"https://backup.example/1.m3u8"}]}]`

var seriesWant = []catalog.Server{
	{Name: "Main", Episodes: []catalog.Episode{
		{Name: "Ep 1", Slug: "ep-1", LinkEmbed: "https://p.example/e/1", LinkM3U8: "https://cdn.example/1.m3u8"},
		{Name: "ตอนที่ 2", Slug: "two", LinkM3U8: "https://cdn.example/2.m3u8?a=$b#c"}}},
	{Name: "Backup", Episodes: []catalog.Episode{{Name: "Ep 1", Slug: "ep-1", LinkM3U8: "https://backup.example/1.m3u8"}}},
}

// The episodes member comes in as an array in JSON Lines and a JSON
// array, and as its JSON text in one CSV cell (contract 9).
func TestImportEpisodesFormats(t *testing.T) {
	var cell strings.Builder
	w := csv.NewWriter(&cell)
	w.Write([]string{"name", "episodes"})
	w.Write([]string{"Series", seriesEpisodes})
	w.Flush()
	inputs := map[string]string{
		"m.jsonl": `{"name":"Series","episodes":` + seriesEpisodes + "}\n",
		"m.json":  `[{"name":"Series","episodes":` + seriesEpisodes + `}]`,
		"m.csv":   cell.String(),
		// White space inside the array is not kept.
		"spaced.jsonl": `{ "name" : "Series" , "episodes" : ` + strings.ReplaceAll(seriesEpisodes, ",", " , ") + " }\n",
	}
	for name, input := range inputs {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			wantSummary(t, importMovies(t, s, name, input, importer.Options{}), 1, 1, 0)
			got := allMovies(t, s)[0].Episodes
			if !reflect.DeepEqual(got, seriesWant) {
				t.Fatalf("episodes:\n got %+v\nwant %+v", got, seriesWant)
			}
		})
	}
}

// link_embed and link_m3u8 are the shorthand for server Main with
// episode Full; giving them with episodes rejects the record, naming
// them.
func TestImportEpisodesShorthand(t *testing.T) {
	s := openStore(t)
	input := strings.Join([]string{
		`{"name":"A","link_embed":"https://p.example/a"}`,
		`{"name":"B","link_m3u8":"https://cdn.example/b.m3u8"}`,
		`{"name":"C","link_embed":"https://p.example/c","link_m3u8":"https://cdn.example/c.m3u8"}`,
		`{"name":"D","link_embed":"https://p.example/d","episodes":` + seriesEpisodes + `}`,
		`{"name":"E","link_m3u8":"https://cdn.example/e.m3u8","episodes":[]}`,
		`{"name":"F","link_m3u8":"ftp://cdn.example/f.m3u8"}`,
		`{"name":"G","link_embed":"","episodes":` + seriesEpisodes + `}`,
	}, "\n")
	sum := importMovies(t, s, "m.jsonl", input, importer.Options{})
	wantRejects(t, sum, map[int]string{
		4: "link_embed: cannot be given with episodes",
		5: "link_m3u8: cannot be given with episodes",
		6: "link_m3u8: must be an absolute http or https URL",
	})
	byName := map[string][]catalog.Server{}
	for _, m := range allMovies(t, s) {
		byName[m.Name] = m.Episodes
	}
	full := func(embed, m3u8 string) []catalog.Server {
		return []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{{Name: "Full", Slug: "full", LinkEmbed: embed, LinkM3U8: m3u8}}}}
	}
	want := map[string][]catalog.Server{
		"A": full("https://p.example/a", ""),
		"B": full("", "https://cdn.example/b.m3u8"),
		"C": full("https://p.example/c", "https://cdn.example/c.m3u8"),
		"G": seriesWant,
	}
	if !reflect.DeepEqual(byName, want) {
		t.Fatalf("stored:\n got %+v\nwant %+v", byName, want)
	}
}

func TestImportEpisodesRejects(t *testing.T) {
	lines := []string{
		`{"name":"A","episodes":[{"server_name":"Main","server_data":[{"name":"x","link_embed":"https://p.example/1","extra":1}]}]}`,
		`{"name":"B","episodes":{"server_name":"Main"}}`,
		`{"name":"C","episodes":["a"]}`,
		`{"name":"D","episodes":[{"server_name":"Main","server_data":[{"name":"x"}]}]}`,
		`{"name":"E","episodes":[{"server_name":"","server_data":[{"name":"x","link_m3u8":"https://cdn.example/1.m3u8"}]}]}`,
		`{"name":"F","episodes":"not json"}`,
	}
	sum := importMovies(t, openStore(t), "m.jsonl", strings.Join(lines, "\n"), importer.Options{})
	wantRejects(t, sum, map[int]string{
		1: "episodes: must be an array of servers",
		2: "episodes: must be an array of servers",
		3: "episodes: must be an array of servers",
		4: "episodes[0].server_data[0]: needs link_embed, link_m3u8 or both",
		5: "episodes[0].server_name: is required",
		6: "episodes: must be an array of servers",
	})
	if !strings.Contains(rejectLines(sum)[1], "extra") {
		t.Errorf("an unknown member inside episodes is not named: %q", rejectLines(sum)[1])
	}
}

// A series of 2,000 episodes imports whole.
func TestImportLongSeries(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name":"Long","episodes":[{"server_name":"Main","server_data":[`)
	for i := 1; i <= 2000; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"Ep %d","link_embed":"https://p.example/e/%d","link_m3u8":"https://cdn.example/%d/index.m3u8"}`, i, i, i)
	}
	b.WriteString("]}]}\n")
	s := openStore(t)
	wantSummary(t, importMovies(t, s, "m.jsonl", b.String(), importer.Options{}), 1, 1, 0)
	m, err := s.GetMovie(context.Background(), allMovies(t, s)[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if eps := m.Episodes[0].Episodes; len(eps) != 2000 || eps[1999].Slug != "ep-2000" {
		t.Fatalf("stored %d episodes", len(eps))
	}
}
