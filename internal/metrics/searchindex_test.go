package metrics_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"catalog/internal/catalog"
	"catalog/internal/metrics"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// TestSearchIndexLeftOut: a clip stored before ids were capped, above
// 2^32-1 (raw SQL: the store refuses it), is counted in the index's
// series, beside the clip the index holds.
func TestSearchIndexLeftOut(t *testing.T) {
	db := testdb.New(t)
	store := db.Open(t)
	if err := store.CreateClip(t.Context(), &catalog.Clip{Title: "near", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}); err != nil {
		t.Fatal(err)
	}
	driver, created := "sqlite", "0"
	if testdb.Engine() == testdb.Postgres {
		driver, created = "pgx", "now()"
	}
	raw, err := sql.Open(driver, db.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(t.Context(), `INSERT INTO clips (id, title, title_fold, iframe_url, created_at)
		VALUES (4294967296, 'far', 'far', 'https://www.youtube.com/embed/dQw4w9WgXcQ', `+created+`)`); err != nil {
		t.Fatal(err)
	}
	live := searchtest.Start(t, store, catalog.SearchClips)
	m := metrics.New()
	m.SearchIndexes(map[string]*search.Live{"clips": live})
	want := `
# HELP catalog_search_index_left_out Records in no list or search because their id is above 2^32-1 (stored before ids were capped); re-import them under ids in range.
# TYPE catalog_search_index_left_out gauge
catalog_search_index_left_out{service="clips"} 1
`
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want), "catalog_search_index_left_out"); err != nil {
		t.Error(err)
	}
}
