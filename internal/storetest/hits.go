package storetest

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// hitDay is the UTC day of a date.
func hitDay(y int, m time.Month, d int) catalog.HitDay {
	return catalog.HitDayOf(time.Date(y, m, d, 12, 0, 0, 0, time.UTC))
}

// storedHits reads a movie's hits as stored, without the rollover of a
// read.
func storedHits(tb testing.TB, s catalog.Store, id int64) catalog.Hits {
	tb.Helper()
	return getMovie(tb, s, id).Hits
}

func runHits(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()

	t.Run("AddsByPeriod", func(t *testing.T) {
		// Contract 12: the total only grows; a period's count grows while
		// the batches' days lie in one period and starts again in the
		// next, whatever order the periods end in.
		s := open(t)
		a, b := newMovie(t, "Watched", "HIT-1"), newMovie(t, "Other", "HIT-2")
		upsert(t, s, &a, &b)
		steps := []struct {
			name   string
			day    catalog.HitDay
			counts []catalog.HitCount
			want   catalog.Hits // a's
		}{
			{"first, a Wednesday", hitDay(2026, 11, 4), []catalog.HitCount{{ID: a.ID, N: 2}, {ID: b.ID, N: 1}},
				catalog.Hits{Total: 2, Day: 2, Week: 2, Month: 2, On: hitDay(2026, 11, 4)}},
			{"same day", hitDay(2026, 11, 4), []catalog.HitCount{{ID: a.ID, N: 3}},
				catalog.Hits{Total: 5, Day: 5, Week: 5, Month: 5, On: hitDay(2026, 11, 4)}},
			{"next day, same week", hitDay(2026, 11, 5), []catalog.HitCount{{ID: a.ID, N: 1}},
				catalog.Hits{Total: 6, Day: 1, Week: 6, Month: 6, On: hitDay(2026, 11, 5)}},
			{"Sunday ends the ISO week", hitDay(2026, 11, 8), []catalog.HitCount{{ID: a.ID, N: 1}},
				catalog.Hits{Total: 7, Day: 1, Week: 7, Month: 7, On: hitDay(2026, 11, 8)}},
			{"Monday, a new week", hitDay(2026, 11, 9), []catalog.HitCount{{ID: a.ID, N: 4}},
				catalog.Hits{Total: 11, Day: 4, Week: 4, Month: 11, On: hitDay(2026, 11, 9)}},
			{"a new month in the same week", hitDay(2026, 12, 1), []catalog.HitCount{{ID: a.ID, N: 1}},
				catalog.Hits{Total: 12, Day: 1, Week: 1, Month: 1, On: hitDay(2026, 12, 1)}},
			{"a late batch of the day before joins the stored day", hitDay(2026, 11, 30), []catalog.HitCount{{ID: a.ID, N: 2}},
				catalog.Hits{Total: 14, Day: 3, Week: 3, Month: 3, On: hitDay(2026, 12, 1)}},
			{"an id given twice, and one with no movie", hitDay(2026, 12, 1), []catalog.HitCount{{ID: a.ID, N: 1}, {ID: a.ID + b.ID + 100, N: 5}, {ID: a.ID, N: 1}},
				catalog.Hits{Total: 16, Day: 5, Week: 5, Month: 5, On: hitDay(2026, 12, 1)}},
		}
		for _, st := range steps {
			noErr(t, s.AddHits(ctx, st.day, st.counts), st.name)
			if got := storedHits(t, s, a.ID); got != st.want {
				t.Fatalf("%s: stored %+v, want %+v", st.name, got, st.want)
			}
		}
		if got, want := storedHits(t, s, b.ID), (catalog.Hits{Total: 1, Day: 1, Week: 1, Month: 1, On: hitDay(2026, 11, 4)}); got != want {
			t.Errorf("b: stored %+v, want %+v", got, want)
		}
		noErr(t, s.AddHits(ctx, hitDay(2026, 12, 2), nil), "AddHits of nothing")
	})

	t.Run("NotAChange", func(t *testing.T) {
		// A hit never moves updated_at (contract 12), and no write of the
		// movie's own fields takes the counts back.
		s := open(t)
		old := time.Date(2021, 6, 7, 8, 9, 10, 0, time.UTC)
		m := newMovie(t, "Counted", "HIT-3")
		m.UpdatedAt = old
		upsert(t, s, &m)
		before, err := s.DataVersion(ctx)
		noErr(t, err, "DataVersion")
		logged, err := s.KindVersion(ctx, catalog.SearchMovies)
		noErr(t, err, "KindVersion")
		day := hitDay(2026, 11, 4)
		noErr(t, s.AddHits(ctx, day, []catalog.HitCount{{ID: m.ID, N: 7}}), "AddHits")
		// The index sorts by the counts (contract 12): a hit batch is a
		// change it reads, as counts alone (no document), as stored.
		want := catalog.Hits{Total: 7, Day: 7, Week: 7, Month: 7, On: day}
		u, err := s.SearchChanges(ctx, catalog.SearchMovies, logged, 100)
		noErr(t, err, "SearchChanges")
		if len(u.Docs) != 0 || len(u.Gone) != 0 || len(u.Hits) != 1 || u.Hits[0] != (catalog.HitsOf{ID: m.ID, Hits: want}) {
			t.Errorf("search log after a hit: got %+v, want movie %d with hits %+v alone", u, m.ID, want)
		}
		var all []catalog.SearchDoc
		_, err = s.SearchDocs(ctx, catalog.SearchMovies, func(d catalog.SearchDoc) { all = append(all, d) })
		noErr(t, err, "SearchDocs")
		if len(all) != 1 || all[0].Hits != want {
			t.Errorf("search documents after a hit: got %+v, want hits %+v", all, want)
		}
		got := getMovie(t, s, m.ID)
		if !got.UpdatedAt.Equal(old) {
			t.Errorf("updated_at after a hit: got %v, want %v", got.UpdatedAt, old)
		}
		if after, err := s.DataVersion(ctx); err != nil || after == before {
			t.Errorf("data version after a hit: %d, %v; want a change from %d (answers must show the count)", after, err, before)
		}
		again := newMovie(t, "Counted", "HIT-3")
		upsert(t, s, &again) // unchanged
		changed := newMovie(t, "Counted", "HIT-3")
		changed.Synopsis = "Changed."
		upsert(t, s, &changed)
		edit := getMovie(t, s, m.ID)
		edit.Name, edit.UpdatedAt = "Counted, edited", time.Time{}
		noErr(t, s.UpdateMovie(ctx, &edit), "UpdateMovie")
		if got := storedHits(t, s, m.ID); got != want {
			t.Errorf("after an import and an edit: stored %+v, want %+v", got, want)
		}
		ms, err := s.MoviesByID(ctx, []int64{m.ID}, 1<<catalog.FieldHitsWeek)
		noErr(t, err, "MoviesByID")
		if len(ms) != 1 || ms[0].Hits != want {
			t.Errorf("MoviesByID with hits_week alone: got %+v, want hits %+v", ms, want)
		}
		var vod catalog.Vod
		vods, err := s.VodsByID(ctx, []int64{m.ID})
		noErr(t, err, "VodsByID")
		if len(vods) == 1 {
			vod = vods[0]
		}
		if vod.Hits != want {
			t.Errorf("VodsByID: hits %+v, want %+v", vod.Hits, want)
		}
	})

	t.Run("LoggedAsCounts", func(t *testing.T) {
		// A hit batch is logged as counts alone, which the index reads
		// without the documents (catalog.SearchUpdate.Hits); a movie
		// also changed whole, or deleted, since the version asked about
		// is that change alone, its counts in the document; a clip is
		// never counted; and max bounds the whole changes, not the
		// counts.
		s := open(t)
		a, b, c, d := newMovie(t, "Hit alone", "HIT-7"), newMovie(t, "Hit and edited", "HIT-8"),
			newMovie(t, "Hit and deleted", "HIT-9"), newMovie(t, "Hit twice", "HIT-10")
		upsert(t, s, &a, &b, &c, &d)
		from, err := s.KindVersion(ctx, catalog.SearchMovies)
		noErr(t, err, "KindVersion")
		clips, err := s.KindVersion(ctx, catalog.SearchClips)
		noErr(t, err, "KindVersion")
		day := hitDay(2026, 11, 4)
		all := []catalog.HitCount{{ID: a.ID, N: 1}, {ID: b.ID, N: 2}, {ID: c.ID, N: 3}, {ID: d.ID, N: 4}}
		noErr(t, s.AddHits(ctx, day, all), "AddHits")
		edit := getMovie(t, s, b.ID)
		edit.Name, edit.UpdatedAt = "Hit and edited, edited", time.Time{}
		noErr(t, s.UpdateMovie(ctx, &edit), "UpdateMovie")
		noErr(t, s.DeleteMovie(ctx, c.ID), "DeleteMovie")
		noErr(t, s.AddHits(ctx, day+1, []catalog.HitCount{{ID: d.ID, N: 1}}), "AddHits")

		u, err := s.SearchChanges(ctx, catalog.SearchMovies, from, 2)
		noErr(t, err, "SearchChanges")
		counts := func(n int64, on catalog.HitDay) catalog.Hits {
			return catalog.Hits{Total: n, Day: n, Week: n, Month: n, On: on}
		}
		wantHits := []catalog.HitsOf{{ID: a.ID, Hits: counts(1, day)},
			{ID: d.ID, Hits: catalog.Hits{Total: 5, Day: 1, Week: 5, Month: 5, On: day + 1}}}
		slices.SortFunc(u.Hits, func(x, y catalog.HitsOf) int { return cmp.Compare(x.ID, y.ID) })
		if !slices.Equal(u.Hits, wantHits) {
			t.Errorf("counts alone: got %+v, want %+v", u.Hits, wantHits)
		}
		if len(u.Docs) != 1 || u.Docs[0].ID != b.ID || u.Docs[0].Hits != counts(2, day) {
			t.Errorf("whole changes: got %+v, want movie %d with its counts %+v", u.Docs, b.ID, counts(2, day))
		}
		if !slices.Equal(u.Gone, []int64{c.ID}) {
			t.Errorf("gone: got %v, want [%d]", u.Gone, c.ID)
		}
		if _, err := s.SearchChanges(ctx, catalog.SearchMovies, from, 1); err != catalog.ErrSearchLogGap {
			t.Errorf("two whole changes with max 1: %v, want ErrSearchLogGap", err)
		}
		if u, err := s.SearchChanges(ctx, catalog.SearchClips, clips, 10); err != nil || len(u.Docs)+len(u.Gone)+len(u.Hits) != 0 {
			t.Errorf("clips after hits: %+v, %v; want no change", u, err)
		}
	})

	t.Run("ConcurrentBatchesAddUp", func(t *testing.T) {
		// Batches from several writers at once (instances sharing the
		// database, each with its own connection), over the same movies
		// in different orders: every count is kept.
		s := open(t)
		a, b, c := newMovie(t, "One", "HIT-4"), newMovie(t, "Two", "HIT-5"), newMovie(t, "Three", "HIT-6")
		upsert(t, s, &a, &b, &c)
		const writers, batches = 6, 15
		day := hitDay(2026, 11, 4)
		var wg sync.WaitGroup
		errs := make(chan error, writers*batches)
		for w := range writers {
			wg.Go(func() {
				for i := range batches {
					counts := []catalog.HitCount{{ID: a.ID, N: 1}, {ID: b.ID, N: 2}, {ID: c.ID, N: 3}}
					if (w+i)%2 == 1 {
						counts[0], counts[2] = counts[2], counts[0]
					}
					errs <- s.AddHits(ctx, day, counts)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			noErr(t, err, "concurrent AddHits")
		}
		for i, id := range []int64{a.ID, b.ID, c.ID} {
			want := int64((i + 1) * writers * batches)
			if got := storedHits(t, s, id); got.Total != want || got.Day != want {
				t.Errorf("movie %d: stored %+v, want %d in all and today", id, got, want)
			}
		}
	})
}
