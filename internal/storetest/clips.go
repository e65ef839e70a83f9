package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
)

func newClip(title, platform string) catalog.Clip {
	return catalog.Clip{
		Title:     title,
		IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
		CoverURL:  "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
		Actor:     "An Actor",
		Studio:    "A Studio",
		Platform:  platform,
		Notes:     "line one\nline two\ttabbed",
	}
}

func createClip(tb testing.TB, s catalog.Store, title, platform string) catalog.Clip {
	tb.Helper()
	c := newClip(title, platform)
	noErr(tb, s.CreateClip(context.Background(), &c), "CreateClip")
	return c
}

func runClips(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()

	t.Run("CreateAssignsIncreasingIDAndTime", func(t *testing.T) {
		s := open(t)
		before := nowSecond()
		var last int64
		for i := range 3 {
			c := newClip("clip", "JAV")
			noErr(t, s.CreateClip(ctx, &c), "CreateClip")
			if c.ID <= last {
				t.Fatalf("clip %d: got id %d, want > %d", i, c.ID, last)
			}
			last = c.ID
			wantTimeBetween(t, "CreatedAt", c.CreatedAt, before, nowSecond())

			got, err := s.GetClip(ctx, c.ID)
			noErr(t, err, "GetClip")
			if got != c {
				t.Fatalf("GetClip: got %+v, want %+v", got, c)
			}
		}
	})

	t.Run("MissingIsNotFound", func(t *testing.T) {
		s := open(t)
		createClip(t, s, "present", "")
		_, err := s.GetClip(ctx, 999)
		wantCode(t, err, catalog.ENOTFOUND)
		_, err = s.UpdateClip(ctx, 999, func(c *catalog.Clip) error { return nil })
		wantCode(t, err, catalog.ENOTFOUND)
		wantCode(t, s.DeleteClip(ctx, 999), catalog.ENOTFOUND)
	})

	t.Run("Update", func(t *testing.T) {
		s := open(t)
		orig := createClip(t, s, "old title", "JAV")
		got, err := s.UpdateClip(ctx, orig.ID, func(c *catalog.Clip) error {
			if *c != orig {
				t.Errorf("fn got %+v, want the stored clip %+v", *c, orig)
			}
			c.Title = "new title"
			c.Platform = "ทวิต"
			c.CoverURL = ""
			return nil
		})
		noErr(t, err, "UpdateClip")
		want := orig
		want.Title, want.Platform, want.CoverURL = "new title", "ทวิต", ""
		if got != want {
			t.Fatalf("UpdateClip returned %+v, want %+v", got, want)
		}
		stored, err := s.GetClip(ctx, orig.ID)
		noErr(t, err, "GetClip")
		if stored != want {
			t.Fatalf("GetClip after update: got %+v, want %+v", stored, want)
		}
		// The platform totals follow the change.
		if _, total := listClips(t, s, catalog.ClipFilter{Platform: "JAV"}); total != 0 {
			t.Fatalf("JAV total after moving the clip: got %d, want 0", total)
		}
		if ids, total := listClips(t, s, catalog.ClipFilter{Platform: "ทวิต"}); total != 1 {
			t.Fatalf("ทวิต total after moving the clip: got %d (%v), want 1", total, ids)
		}
	})

	t.Run("UpdateFnErrorWritesNothing", func(t *testing.T) {
		s := open(t)
		orig := createClip(t, s, "keep me", "JAV")
		_, err := s.UpdateClip(ctx, orig.ID, func(c *catalog.Clip) error {
			c.Title = "changed"
			return errFromFn
		})
		if !errors.Is(err, errFromFn) {
			t.Fatalf("UpdateClip: got %v, want fn's error", err)
		}
		got, err := s.GetClip(ctx, orig.ID)
		noErr(t, err, "GetClip")
		if got != orig {
			t.Fatalf("after failed update: got %+v, want %+v", got, orig)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := open(t)
		a := createClip(t, s, "a", "JAV")
		b := createClip(t, s, "b", "JAV")
		noErr(t, s.DeleteClip(ctx, b.ID), "DeleteClip")
		_, err := s.GetClip(ctx, b.ID)
		wantCode(t, err, catalog.ENOTFOUND)
		wantCode(t, s.DeleteClip(ctx, b.ID), catalog.ENOTFOUND)
		ids, total := listClips(t, s, catalog.ClipFilter{})
		wantIDs(t, "after delete", ids, []int64{a.ID})
		if total != 1 {
			t.Fatalf("total after delete: got %d, want 1", total)
		}
		if _, total := listClips(t, s, catalog.ClipFilter{Platform: "JAV"}); total != 1 {
			t.Fatalf("JAV total after delete: got %d, want 1", total)
		}
		// Ids are never reused, even the highest one after its delete.
		c := createClip(t, s, "c", "JAV")
		if c.ID <= b.ID {
			t.Fatalf("id after deleting %d: got %d, want a new higher id", b.ID, c.ID)
		}
	})

	t.Run("ListOrderTotalAndPaging", func(t *testing.T) {
		s := open(t)
		var all []int64
		for range 5 {
			all = append([]int64{createClip(t, s, "clip", "").ID}, all...)
		}
		tests := []struct {
			name   string
			paging catalog.Paging
			want   []int64
		}{
			{"first page", page(1, 2), all[0:2]},
			{"second page", page(2, 2), all[2:4]},
			{"last partial page", page(3, 2), all[4:5]},
			{"past the end", page(4, 2), nil},
			{"far past the end", page(1000, 100), nil},
			{"everything", page(1, 100), all},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ids, total := listClips(t, s, catalog.ClipFilter{Paging: tt.paging})
				wantIDs(t, "clip list", ids, tt.want)
				if total != 5 {
					t.Fatalf("total: got %d, want 5", total)
				}
			})
		}
	})

	t.Run("PlatformFilter", func(t *testing.T) {
		s := open(t)
		j1 := createClip(t, s, "one", "JAV")
		t1 := createClip(t, s, "two", "ทวิต")
		j2 := createClip(t, s, "three", "JAV")
		n1 := createClip(t, s, "four", "")
		tests := []struct {
			platform string
			want     []int64
		}{
			{"JAV", []int64{j2.ID, j1.ID}},
			{"ทวิต", []int64{t1.ID}},
			{"JAVJAV", nil},
			{"", []int64{n1.ID, j2.ID, t1.ID, j1.ID}}, // "" = any platform
		}
		for _, tt := range tests {
			t.Run(tt.platform, func(t *testing.T) {
				ids, total := listClips(t, s, catalog.ClipFilter{Platform: tt.platform})
				wantIDs(t, "clip list", ids, tt.want)
				if total != int64(len(tt.want)) {
					t.Fatalf("total: got %d, want %d", total, len(tt.want))
				}
			})
		}
		ids, total := listClips(t, s, catalog.ClipFilter{Platform: "JAV", Paging: page(2, 1)})
		wantIDs(t, "JAV page 2 of 1", ids, []int64{j1.ID})
		if total != 2 {
			t.Fatalf("JAV total on page 2: got %d, want 2", total)
		}
	})

	t.Run("ImportClips", func(t *testing.T) {
		s := open(t)
		existing := createClip(t, s, "existing", "JAV")
		old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		before := nowSecond()
		batch := []catalog.Clip{
			newClip("imported now", "JAV"),
			func() catalog.Clip { c := newClip("imported old", "ทวิต"); c.CreatedAt = old; return c }(),
			func() catalog.Clip { c := newClip("replacement", "ทวิต"); c.ID = existing.ID; return c }(),
			func() catalog.Clip { c := newClip("explicit id", ""); c.ID = 1000; c.CreatedAt = old; return c }(),
		}
		noErr(t, s.ImportClips(ctx, batch), "ImportClips")

		clips, total := Clips(t, s, catalog.ClipFilter{Paging: firstPage})
		if total != 4 || len(clips) != 4 {
			t.Fatalf("after import: got total %d and %d clips, want 4 and 4", total, len(clips))
		}
		byTitle := map[string]catalog.Clip{}
		for _, c := range clips {
			byTitle[c.Title] = c
		}
		if _, ok := byTitle["existing"]; ok {
			t.Fatalf("clip %d was not replaced: %+v", existing.ID, clips)
		}
		repl := byTitle["replacement"]
		if repl.ID != existing.ID || repl.Platform != "ทวิต" {
			t.Fatalf("replacement: got %+v, want id %d on ทวิต", repl, existing.ID)
		}
		if c := byTitle["explicit id"]; c.ID != 1000 || !c.CreatedAt.Equal(old) {
			t.Fatalf("explicit id: got id %d created %v, want 1000 and %v", c.ID, c.CreatedAt, old)
		}
		if c := byTitle["imported old"]; !c.CreatedAt.Equal(old) {
			t.Fatalf("imported old: got created %v, want %v", c.CreatedAt, old)
		}
		c := byTitle["imported now"]
		if c.ID == 0 {
			t.Fatalf("imported now: missing from %+v", clips)
		}
		wantTimeBetween(t, "zero CreatedAt imported", c.CreatedAt, before, nowSecond())
		if clips[0].ID != 1000 {
			t.Fatalf("newest first: got first id %d, want 1000", clips[0].ID)
		}
		// Totals per platform follow imports and replacements.
		if _, n := listClips(t, s, catalog.ClipFilter{Platform: "JAV"}); n != 1 {
			t.Fatalf("JAV total: got %d, want 1", n)
		}
		if _, n := listClips(t, s, catalog.ClipFilter{Platform: "ทวิต"}); n != 2 {
			t.Fatalf("ทวิต total: got %d, want 2", n)
		}
		// The replaced title left the search index; the new one is in it.
		if ids, _ := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms("existing")}); len(ids) != 0 {
			t.Fatalf("search for the replaced title: got %v, want none", ids)
		}
		if ids, _ := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms("replacement")}); len(ids) != 1 {
			t.Fatalf("search for the new title: got %v, want [%d]", ids, existing.ID)
		}
		// New ids continue after the highest imported one.
		if next := createClip(t, s, "next", ""); next.ID <= 1000 {
			t.Fatalf("id after importing 1000: got %d, want > 1000", next.ID)
		}
		noErr(t, s.ImportClips(ctx, nil), "ImportClips(nil)")
	})

	t.Run("ConcurrentWritesAndReads", func(t *testing.T) {
		s := open(t)
		const workers, each = 4, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers*each*2)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					c := newClip("concurrent", "JAV")
					if err := s.CreateClip(ctx, &c); err != nil {
						errs <- err
					}
					if _, err := s.ClipsByID(ctx, []int64{c.ID}); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("concurrent use: %v", err)
		}
		if _, total := listClips(t, s, catalog.ClipFilter{}); total != workers*each {
			t.Fatalf("total: got %d, want %d", total, workers*each)
		}
	})
}
