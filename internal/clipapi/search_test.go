package clipapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"catalog/internal/catalog"
)

// TestDeepPagesUnderWrites checks deep pages (past the OFFSET range)
// while the list changes between requests: each answer must be the page
// and total the database gives at that moment, newest first (contract
// 2), whether the id order, the search index or the database serves it.
func TestDeepPagesUnderWrites(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var clips []catalog.Clip
	for i := range 1100 {
		clips = append(clips, catalog.Clip{Title: fmt.Sprintf("clip %d", i), IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
			Platform: []string{"", "JAV"}[i%2]})
	}
	if err := e.store.ImportClips(ctx, clips); err != nil {
		t.Fatal(err)
	}
	for round := range 12 {
		// A write before every read: the id order is never current.
		switch round % 3 {
		case 0:
			e.addClip(catalog.Clip{Title: fmt.Sprintf("new %d", round), IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", Platform: "JAV"})
		case 1:
			if err := e.store.DeleteClip(ctx, int64(600-round)); err != nil {
				t.Fatal(err)
			}
		case 2:
			if _, err := e.store.UpdateClip(ctx, int64(650-round), func(c *catalog.Clip) error { c.Platform = "JAV"; return nil }); err != nil {
				t.Fatal(err)
			}
		}
		for _, platform := range []string{"", "JAV"} {
			// Offsets from 500 (where OFFSET stops) to past the end.
			for _, pg := range []int64{26, 31, 36, 51, 53, 56} {
				target := fmt.Sprintf("/api/clips?page=%d&limit=20", pg)
				if platform != "" {
					target = fmt.Sprintf("/api/clips?platform=%s&page=%d&limit=10", platform, pg)
				}
				rec := e.get(target)
				if rec.Code != 200 {
					t.Fatalf("%s: status %d", target, rec.Code)
				}
				var got struct {
					Data []struct {
						ID int64 `json:"id"`
					} `json:"data"`
					Meta struct {
						Total int64 `json:"total"`
					} `json:"meta"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
					t.Fatal(err)
				}
				limit := int64(20)
				if platform != "" {
					limit = 10
				}
				want, total := e.refClips(platform, catalog.Paging{Page: pg, Limit: limit})
				var ids []int64
				for _, c := range got.Data {
					ids = append(ids, c.ID)
				}
				if got.Meta.Total != total || !slices.Equal(ids, want) {
					t.Fatalf("round %d %s: total %d ids %v, want %d %v", round, target, got.Meta.Total, ids, total, want)
				}
			}
		}
	}
}
