package storetest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

// runWrites holds every kind of movie write to contract 6: a write that
// changes a movie moves its updated_at (served as vod_time) to the
// write's time, so that incremental collectors (h=) see it and the
// resource API lists it first. Each case starts from a movie last
// changed long ago and writes it the way one path of the product does;
// the importer cases run the importer itself, as `catalog import`, the
// API's and the console's uploads do.
func runWrites(t *testing.T, open func(t *testing.T) catalog.Store) {
	longAgo := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	const source = "peer"
	tests := []struct {
		name string
		// write changes the aged movie m in s and returns the id of the
		// movie it wrote.
		write func(t *testing.T, s catalog.Store, m catalog.Movie) int64
	}{
		{"replacing import", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			importLines(t, s, importer.Options{}, `{"id_code": "W-1", "name": "Aged", "synopsis": "A new synopsis."}`)
			return m.ID
		}},
		{"merge import", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			importLines(t, s, importer.Options{Merge: true}, `{"id_code": "W-1", "synopsis": "A merged synopsis."}`)
			return m.ID
		}},
		{"merge import by id", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			importLines(t, s, importer.Options{Merge: true}, `{"id": `+strconv.FormatInt(m.ID, 10)+`, "name": "Renamed by id"}`)
			return m.ID
		}},
		{"import of episodes only", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			importLines(t, s, importer.Options{Merge: true},
				`{"id_code": "W-1", "episodes": [{"server_name": "Main", "server_data": [{"name": "Ep 9", "link_embed": "https://p.example/9"}]}]}`)
			return m.ID
		}},
		{"import of a new movie", func(t *testing.T, s catalog.Store, _ catalog.Movie) int64 {
			importLines(t, s, importer.Options{}, `{"id_code": "W-2", "name": "Brand new"}`)
			return movieIDByCode(t, s, "W-2")
		}},
		// The console reads the movie, changes it and saves it with
		// UpdateMovie: the time it read must not stick.
		{"console edit", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			m = getMovie(t, s, m.ID)
			m.Name = "Edited in the console"
			noErr(t, m.Normalize(), "Normalize")
			noErr(t, s.UpdateMovie(context.Background(), &m), "UpdateMovie")
			return m.ID
		}},
		{"console episodes edit", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			m = getMovie(t, s, m.ID)
			m.Episodes[0].Episodes[0].LinkEmbed = "https://player.example.com/embed/1-new"
			noErr(t, m.Normalize(), "Normalize")
			noErr(t, s.UpdateMovie(context.Background(), &m), "UpdateMovie")
			return m.ID
		}},
		{"console add", func(t *testing.T, s catalog.Store, _ catalog.Movie) int64 {
			added := newMovie(t, "Added in the console", "W-3")
			upsert(t, s, &added)
			return added.ID
		}},
		{"delete and re-add", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			noErr(t, s.DeleteMovie(context.Background(), m.ID), "DeleteMovie")
			importLines(t, s, importer.Options{}, `{"id_code": "W-1", "name": "Aged"}`)
			return movieIDByCode(t, s, "W-1")
		}},
		{"re-add under its id", func(t *testing.T, s catalog.Store, m catalog.Movie) int64 {
			noErr(t, s.DeleteMovie(context.Background(), m.ID), "DeleteMovie")
			importLines(t, s, importer.Options{}, `{"id": `+strconv.FormatInt(m.ID, 10)+`, "name": "Aged"}`)
			return m.ID
		}},
		{"collect update", func(t *testing.T, s catalog.Store, _ catalog.Movie) int64 {
			page := collectPage(t, s, source, collectedMovie(t, 7, "Collected", "2019", "v2", playServer("iframe", "https://p.example/c", 2)))
			return page[0].Movie.ID
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			aged := newMovie(t, "Aged", "W-1")
			aged.UpdatedAt = longAgo
			other := newMovie(t, "Other", "W-0")
			other.UpdatedAt = longAgo.Add(time.Hour)
			upsert(t, s, &aged, &other)
			collected := collectedMovie(t, 7, "Collected", "2019", "v1", playServer("iframe", "https://p.example/c", 1))
			collected.Movie.UpdatedAt = longAgo
			collectPage(t, s, source, collected)

			before := nowSecond()
			id := tt.write(t, s, aged)
			got := getMovie(t, s, id)
			wantTimeBetween(t, tt.name+": updated_at", got.UpdatedAt, before, nowSecond())
			// h= and the order of the resource API: the written movie
			// alone changed since before, and it comes first.
			_, ids, total := listVods(t, s, catalog.VodFilter{ChangedSince: before})
			wantIDs(t, tt.name+": changed since the write", ids, []int64{id})
			if total != 1 {
				t.Errorf("%s: total changed since the write: got %d, want 1", tt.name, total)
			}
			_, ids, _ = listVods(t, s, catalog.VodFilter{Paging: page(1, 1)})
			wantIDs(t, tt.name+": first by last change", ids, []int64{id})
		})
	}
}

// importLines imports JSON Lines into s as `catalog import movies`
// does, failing on any rejected record.
func importLines(tb testing.TB, s catalog.Store, opts importer.Options, lines ...string) {
	tb.Helper()
	sum, err := importer.Movies(context.Background(), s, "writes.jsonl", strings.NewReader(strings.Join(lines, "\n")), opts)
	noErr(tb, err, "import")
	if sum.Rejected != 0 || sum.Imported != len(lines) {
		tb.Fatalf("import: got %+v, want %d imported", sum, len(lines))
	}
}

func movieIDByCode(tb testing.TB, s catalog.Store, code string) int64 {
	tb.Helper()
	id, err := s.MovieIDByKey(context.Background(), code, "")
	noErr(tb, err, "MovieIDByKey "+code)
	return id
}
