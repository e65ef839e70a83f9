package search_test

import (
	"context"
	"path/filepath"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/sqlite"
)

// Stats, for the metrics of contract 7: the index's size follows the
// catalog, and it reports how far it trails a version it was asked for.
func TestLiveStats(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "stats.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if got := search.NewLive(store, catalog.SearchClips, nil).Stats(); got != (search.Stats{}) {
		t.Errorf("stats before a build: %+v, want zero", got)
	}
	for _, title := range []string{"Golden part one", "Golden part two", "ตอนที่ 3"} {
		c := catalog.Clip{Title: title, IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
		if err := store.CreateClip(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	live := searchtest.Start(t, store, catalog.SearchClips)
	st := live.Stats()
	if !st.Ready || st.Documents != 3 || st.Bytes < int64(len("golden part onegolden part two")) || st.Behind != 0 {
		t.Fatalf("stats after the build: %+v, want ready, 3 documents, some bytes, not behind", st)
	}
	version, err := store.KindVersion(ctx, catalog.SearchClips)
	if err != nil {
		t.Fatal(err)
	}
	c := catalog.Clip{Title: "Fourth", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
	if err := store.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	now, _ := store.KindVersion(ctx, catalog.SearchClips)
	if _, err := live.Find(ctx, now, search.Query{Terms: []string{"fourth"}, Limit: 10}); err != nil {
		t.Fatalf("search: %v", err)
	}
	if st := live.Stats(); st.Documents != 4 || st.Version < now || st.Behind != 0 || st.Version <= version {
		t.Errorf("stats after catching up: %+v, want 4 documents at version >= %d", st, now)
	}
}
