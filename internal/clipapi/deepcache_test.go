package clipapi_test

import (
	"fmt"
	"testing"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/clipapi"
)

// TestDeepPagesNotKept: the response cache keeps shallow list pages and
// answers them again from memory, but a page from record 500 on (20 per
// page: page 26) is built afresh each time and never stored.
func TestDeepPagesNotKept(t *testing.T) {
	stats := &cache.Stats{}
	e := newEnv(t, func(c *clipapi.Config) { c.CacheStats = stats })
	for i := range 3 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i)})
	}
	for _, c := range []struct {
		target string
		kept   bool
	}{
		{"/api/clips?page=25", true},           // records 480-499
		{"/api/clips?page=26", false},          // records 500-519
		{"/api/clips?page=5&limit=100", true},  // records 400-499
		{"/api/clips?page=6&limit=100", false}, // records 500-599
		{"/api/clips?page=9000&q=clip", false},
	} {
		entries, hits := stats.Entries.Load(), stats.Hits.Load()
		e.get(c.target)
		e.get(c.target)
		kept := stats.Entries.Load() == entries+1 && stats.Hits.Load() == hits+1
		dropped := stats.Entries.Load() == entries && stats.Hits.Load() == hits
		if (c.kept && !kept) || (!c.kept && !dropped) {
			t.Errorf("%s: kept %v (entries %d -> %d, hits %d -> %d), want %v", c.target, kept,
				entries, stats.Entries.Load(), hits, stats.Hits.Load(), c.kept)
		}
	}
}
