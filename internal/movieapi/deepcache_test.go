package movieapi_test

import (
	"net/http"
	"testing"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/movieapi"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// TestDeepPagesNotKept: shallow movie list pages are kept by the
// response cache; a page from record 500 on is built afresh each time
// and never stored.
func TestDeepPagesNotKept(t *testing.T) {
	store := testdb.New(t).Open(t)
	addNumbered(t, store, 3)
	stats := &cache.Stats{}
	h := movieapi.New(movieapi.Config{Store: store, Version: "test", Logger: testLogger(t), CacheStats: stats,
		Search: searchtest.Start(t, store, catalog.SearchMovies)})
	for _, c := range []struct {
		target string
		kept   bool
	}{
		{"/api/movies?page=25", true},  // records 480-499
		{"/api/movies?page=26", false}, // records 500-519
		{"/api/movies?fields=id,title&page=5&limit=100", true},
		{"/api/movies?fields=id,title&page=6&limit=100", false},
		{"/api/jav?pg=25", true},
		{"/api/jav?pg=26", false},
	} {
		entries, hits := stats.Entries.Load(), stats.Hits.Load()
		get(t, h, c.target, http.StatusOK)
		get(t, h, c.target, http.StatusOK)
		kept := stats.Entries.Load() == entries+1 && stats.Hits.Load() == hits+1
		dropped := stats.Entries.Load() == entries && stats.Hits.Load() == hits
		if (c.kept && !kept) || (!c.kept && !dropped) {
			t.Errorf("%s: entries %d -> %d, hits %d -> %d; want kept %v", c.target,
				entries, stats.Entries.Load(), hits, stats.Hits.Load(), c.kept)
		}
	}
}
