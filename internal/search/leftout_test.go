package search_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
)

// TestOldHugeIDsLeftOut: a database written before ids were capped
// holds a clip whose id is above 2^32-1 (inserted here with raw SQL,
// since the store refuses it). The index is built without it and
// serves: lists and searches answer with every other clip, through the
// catch-ups that follow, its count is in Stats and the log names it,
// and the clip still reads by its id.
func TestOldHugeIDsLeftOut(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			dsn := e.dsn(t)
			a, b := openPair(t, dsn, e.open)
			seedClips(t, b, 30)
			driver, created := "sqlite", "0"
			if e.name == "postgres" {
				driver, created = "pgx", "now()"
			}
			raw, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			if _, err := raw.ExecContext(t.Context(), `INSERT INTO clips (id, title, title_fold, iframe_url, platform, created_at)
				VALUES (4294967296, 'alpha far', 'alpha far', 'https://www.youtube.com/embed/dQw4w9WgXcQ', 'JAV', `+created+`)`); err != nil {
				t.Fatal(err)
			}

			var logs logBuffer
			l := search.NewLive(a, catalog.SearchClips, logs.logger())
			l.UseFile(filepath.Join(t.TempDir(), "clips.index"))
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			l.Start(ctx)
			searchtest.WaitReady(t, l)
			check := func(what string, want int) {
				t.Helper()
				page, total, err := l.Clips(t.Context(), 0, catalog.ClipFilter{Paging: catalog.Paging{Page: 1, Limit: 100}})
				if err != nil || total != int64(want) || len(page) != want {
					t.Fatalf("%s: list: %d clips of %d, %v; want %d", what, len(page), total, err, want)
				}
				if page[0].ID >= 4294967296 || slices.ContainsFunc(page, func(c catalog.Clip) bool { return c.ID == 4294967296 }) {
					t.Fatalf("%s: list holds the clip of id 4294967296", what)
				}
				found, total, err := l.Clips(t.Context(), 0, catalog.ClipFilter{Terms: []string{"alpha"}, Platform: "JAV", Paging: catalog.Paging{Page: 1, Limit: 100}})
				if err != nil || total != int64(want) || len(found) != want {
					t.Fatalf("%s: search alpha: %d clips of %d, %v; want %d", what, len(found), total, err, want)
				}
				if s := l.Stats(); s.LeftOut != 1 || s.Documents != want {
					t.Fatalf("%s: stats %+v, want 1 left out, %d documents", what, s, want)
				}
			}
			check("after the build", 30)

			// Changes to the clip left out and to others: catch-ups go on.
			if _, err := raw.ExecContext(t.Context(), `UPDATE clips SET title = 'alpha far edited', title_fold = 'alpha far edited' WHERE id = 4294967296`); err != nil {
				t.Fatal(err)
			}
			if err := b.DeleteClip(t.Context(), 7); err != nil {
				t.Fatal(err)
			}
			check("after catch-ups", 29)

			got, err := a.GetClip(t.Context(), 4294967296)
			if err != nil || got.Title != "alpha far edited" {
				t.Fatalf("the clip left out, read by its id: %+v, %v", got, err)
			}

			// The build names what it left out just after it is ready: read
			// the log once the index has stopped.
			stop()
			l.Wait()
			if log := logs.String(); !strings.Contains(log, "records left out, their ids are above 2^32-1") ||
				!strings.Contains(log, "first_ids=[4294967296]") || !strings.Contains(log, "records=1") {
				t.Fatalf("the log does not name the clip left out:\n%s", log)
			}
		})
	}
}
