package catalog

import (
	"context"
	"time"
)

// Hits (contract 12): players send a beacon per play, and each movie
// keeps how many counted in all and in the current UTC day, ISO week
// and month. The counts of a period are stored with the day of the
// movie's last counted hit (Hits.On): they belong to the period that
// day lies in, so a read on a later day serves those of an ended period
// as 0, and the next write starts them again from its own count. No job
// runs at midnight and no count is ever read, changed and written back:
// every write adds (HitStore.AddHits), so instances sharing a database
// never lose each other's counts.

// HitDay is a UTC day: days since 1970-01-01.
type HitDay int64

// HitDayOf is the UTC day of t.
func HitDayOf(t time.Time) HitDay {
	s := t.Unix()
	d := s / 86400
	if s%86400 < 0 {
		d--
	}
	return HitDay(d)
}

// WeekStart is the Monday of d's ISO week (1970-01-01 was a Thursday).
func (d HitDay) WeekStart() HitDay { return d - ((d+3)%7+7)%7 }

// MonthStart is the first day of d's month.
func (d HitDay) MonthStart() HitDay {
	y, m, _ := time.Unix(int64(d)*86400, 0).UTC().Date()
	return HitDayOf(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC))
}

// Hits are a movie's play counts as stored: the counts of the day, week
// and month of On, the UTC day of its last counted hit (0: never).
type Hits struct {
	Total, Day, Week, Month int64
	On                      HitDay
}

// At is h as served on the UTC day today: the count of a period that
// ended before today is 0.
func (h Hits) At(today HitDay) Hits {
	if h.On < today {
		h.Day = 0
	}
	if h.On < today.WeekStart() {
		h.Week = 0
	}
	if h.On < today.MonthStart() {
		h.Month = 0
	}
	return h
}

// HitCount is the hits of one movie in a batch.
type HitCount struct {
	ID, N int64
}

// HitStore keeps the movies' hits.
type HitStore interface {
	// AddHits adds the counts, all counted on the UTC day day, in one
	// transaction of additive writes: the total grows by N, and so does
	// each period's count when the stored day lies in the same period as
	// day, else it starts at N; the stored day becomes the later of the
	// two. Ids with no movie are skipped. Neither updated_at nor the
	// MacCMS order moves. The search log lists the movies as changed in
	// their counts alone (SearchUpdate.Hits).
	AddHits(ctx context.Context, day HitDay, counts []HitCount) error
}

// hitColumns are the stored hits, read with the hit fields and written
// only by AddHits.
var hitColumns = [...]MovieColumn{
	{Name: "hits", Dest: func(m *Movie) any { return &m.Hits.Total }},
	{Name: "hits_day", Dest: func(m *Movie) any { return &m.Hits.Day }},
	{Name: "hits_week", Dest: func(m *Movie) any { return &m.Hits.Week }},
	{Name: "hits_month", Dest: func(m *Movie) any { return &m.Hits.Month }},
	{Name: "hits_on", Dest: func(m *Movie) any { return (*int64)(&m.Hits.On) }},
}

// hitFields are the fields served from hitColumns.
var hitFields = func() (set FieldSet) {
	for f, s := range movieSpecs {
		if s.kind == kindHits {
			set |= 1 << f
		}
	}
	return set
}()

// ServedHits is m's hits as served now (the clock of contract 12's
// rollover).
func (m *Movie) ServedHits() Hits { return m.Hits.At(HitDayOf(time.Now())) }
