package hits_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/hits"
	"catalog/internal/testdb"
)

// recorder is the real store with a record of the batches written to
// it; failing makes the next writes fail (the database away).
type recorder struct {
	catalog.Store
	mu      sync.Mutex
	batches []batch
	failing int
}

type batch struct {
	day    catalog.HitDay
	counts []catalog.HitCount
}

func (r *recorder) AddHits(ctx context.Context, day catalog.HitDay, counts []catalog.HitCount) error {
	r.mu.Lock()
	if r.failing > 0 {
		r.failing--
		r.mu.Unlock()
		return catalog.Errorf(catalog.EUNAVAILABLE, "database away")
	}
	r.batches = append(r.batches, batch{day, slices.Clone(counts)})
	r.mu.Unlock()
	return r.Store.AddHits(ctx, day, counts)
}

func (r *recorder) written() []batch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.batches)
}

// setup opens a store with two movies inside the bubble.
func setup(t *testing.T, db testdb.DB) (*recorder, [2]int64) {
	t.Helper()
	st := db.Open(t)
	movies := []catalog.Movie{{Name: "Counted"}, {Name: "Also counted"}}
	for i := range movies {
		if err := movies[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.UpsertMovies(context.Background(), movies); err != nil {
		t.Fatal(err)
	}
	return &recorder{Store: st}, [2]int64{movies[0].ID, movies[1].ID}
}

func stored(t *testing.T, st catalog.Store, id int64) catalog.Hits {
	t.Helper()
	m, err := st.GetMovie(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Hits
}

// Hits add up in memory: nothing is written before the batch is due,
// then one batch holds every movie's sum, and the shutdown writes what
// came after it.
func TestBatching(t *testing.T) {
	db := testdb.New(t)
	synctest.Test(t, func(t *testing.T) {
		rec, ids := setup(t, db)
		c := hits.New(rec, hits.Options{Every: 5 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { c.Run(ctx); close(done) }()

		for i := range 300 {
			c.Add(ids[i%3/2]) // 200 for the first, 100 for the second
			time.Sleep(4 * time.Millisecond)
		}
		synctest.Wait()
		if b := rec.written(); len(b) != 0 || stored(t, rec, ids[0]).Total != 0 {
			t.Fatalf("after 1.2 s: %d batches written, want none before the 5 s batch", len(b))
		}
		time.Sleep(3800*time.Millisecond + time.Millisecond)
		synctest.Wait()
		b := rec.written()
		if len(b) != 1 {
			t.Fatalf("after 5 s: %d batches, want 1", len(b))
		}
		if want := []catalog.HitCount{{ID: ids[0], N: 200}, {ID: ids[1], N: 100}}; !slices.Equal(b[0].counts, want) {
			t.Errorf("the batch: %+v, want %+v", b[0].counts, want)
		}
		if got := stored(t, rec, ids[0]); got.Total != 200 || got.Day != 200 {
			t.Errorf("stored: %+v, want 200", got)
		}
		if c.Pending() != 0 {
			t.Errorf("pending after the write: %d, want 0", c.Pending())
		}

		time.Sleep(time.Second)
		c.Add(ids[1])
		c.Add(ids[1])
		cancel() // shutdown before the next batch is due
		<-done
		if got := stored(t, rec, ids[1]); got.Total != 102 {
			t.Errorf("after the shutdown: %d hits stored, want 102", got.Total)
		}
		if n := len(rec.written()); n != 2 {
			t.Errorf("batches: %d, want 2 (the last at the shutdown)", n)
		}
	})
}

// The day of a hit is the UTC day it was counted on: a batch that
// spans midnight is written as two, the old day first, so the new day's
// count starts from the hits after midnight. The week restarts on
// Monday and the month on the 1st, whether or not a hit is written
// then; a read serves an ended period as 0.
func TestRollover(t *testing.T) {
	db := testdb.New(t)
	synctest.Test(t, func(t *testing.T) {
		// synctest's clock starts at 2000-01-01 00:00 UTC, a Saturday.
		rec, ids := setup(t, db)
		a := ids[0]
		c := hits.New(rec, hits.Options{Every: 5 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { c.Run(ctx); close(done) }()
		defer func() { cancel(); <-done }()

		at := func(y int, m time.Month, d, h, min, s int) {
			t.Helper()
			wait := time.Until(time.Date(y, m, d, h, min, s, 0, time.UTC))
			if wait < 0 {
				t.Fatalf("the clock is past %d-%d-%d", y, m, d)
			}
			time.Sleep(wait)
		}
		add := func(n int) {
			for range n {
				c.Add(a)
			}
		}
		served := func(y int, m time.Month, d int) catalog.Hits {
			t.Helper()
			synctest.Wait()
			return stored(t, rec, a).At(catalog.HitDayOf(time.Date(y, m, d, 12, 0, 0, 0, time.UTC)))
		}

		// Batches are due every 5 s from the start (:00, :05, ...); the
		// hits below come between them. Sunday 2 January, four seconds
		// before midnight, then Monday, a new day and a new ISO week.
		sunday := catalog.HitDayOf(time.Date(2000, 1, 2, 0, 0, 0, 0, time.UTC))
		at(2000, 1, 2, 23, 59, 56)
		add(3)
		at(2000, 1, 3, 0, 0, 1)
		add(2)
		at(2000, 1, 3, 0, 0, 6) // both written by now
		var days []catalog.HitDay
		for _, x := range rec.written() {
			days = append(days, x.day)
		}
		if !slices.Equal(days, []catalog.HitDay{sunday, sunday + 1}) {
			t.Fatalf("batch days %v: want Sunday's (%d) then Monday's", days, sunday)
		}
		if got, want := served(2000, 1, 3), (catalog.Hits{Total: 5, Day: 2, Week: 2, Month: 5, On: sunday + 1}); got != want {
			t.Errorf("Monday: served %+v, want %+v", got, want)
		}

		// Tuesday with no hit at all: the day's count is served as 0,
		// the week's and the month's stay.
		if got := served(2000, 1, 4); got.Day != 0 || got.Week != 2 || got.Month != 5 || got.Total != 5 {
			t.Errorf("Tuesday without hits: served %+v, want day 0, week 2, month 5", got)
		}
		// Monday 31 January: a new week; Tuesday 1 February: a new month.
		at(2000, 1, 31, 10, 0, 2)
		add(4)
		if got := served(2000, 1, 31); got.Day != 0 || got.Week != 0 || got.Month != 5 {
			t.Errorf("31 January before the batch: served %+v, want day 0, week 0, month 5", got)
		}
		at(2000, 1, 31, 10, 0, 6)
		if got := served(2000, 1, 31); got.Total != 9 || got.Day != 4 || got.Week != 4 || got.Month != 9 {
			t.Errorf("31 January: served %+v, want 9 in all, 4 today and this week, 9 this month", got)
		}
		if got := served(2000, 2, 1); got.Total != 9 || got.Day != 0 || got.Week != 4 || got.Month != 0 {
			t.Errorf("1 February: served %+v, want 9 in all, 4 this week, 0 today and this month", got)
		}
	})
}

// A batch the database refuses is kept and written with the next, added
// to what came since: no hit is lost while the database is away.
func TestFailedBatchKept(t *testing.T) {
	db := testdb.New(t)
	synctest.Test(t, func(t *testing.T) {
		rec, ids := setup(t, db)
		rec.failing = 2
		c := hits.New(rec, hits.Options{Every: time.Second})
		for range 5 {
			c.Add(ids[0])
		}
		if err := c.Flush(context.Background()); catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
			t.Fatalf("first flush: %v, want the database's error", err)
		}
		c.Add(ids[0])
		if err := c.Flush(context.Background()); err == nil {
			t.Fatal("second flush: no error, want the database's")
		}
		if n := c.Pending(); n != 6 {
			t.Fatalf("pending after two failures: %d, want 6", n)
		}
		if err := c.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := stored(t, rec, ids[0]); got.Total != 6 {
			t.Errorf("stored: %d, want 6", got.Total)
		}
		if err := c.Flush(context.Background()); err != nil || len(rec.written()) != 1 {
			t.Errorf("a flush of nothing: %v, %d batches, want no new batch", err, len(rec.written()))
		}
	})
}
