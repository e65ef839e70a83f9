package search

import (
	"maps"
	"math"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// Sorting by plays (contract 12): the index keeps the counts of the
// movies that have any (hitCounts, as stored, with the day of the last
// counted hit), so that a catalog without plays pays nothing for them,
// and per kind (all time, the UTC day, ISO week and month) the records
// whose count is positive in one period, the order's, as (count, id)
// keys sorted like the change order. A page reads that order from the
// top by rank, then the records at 0 (the others) by id, highest first:
// deep pages cost rank reads, never a walk.
//
// A hit batch changes the counts alone (catalog.SearchUpdate.Hits):
// Index.ApplyHits moves those records in the hit orders and nothing
// else, so that thousands of hit movies cost no document each. A whole
// change of a movie (put, remove) sets its counts with the rest.
//
// Rollover: a period's count of an earlier period reads as 0
// (catalog.Hits.At). A put of a later period than the order's empties
// the order first, and a put of an earlier one adds nothing; a query
// whose current period is not the order's reads the order as empty
// (every record ties at 0: the new order). No job runs at midnight.

// hitKind indexes hitRec.n and facets.hits.
type hitKind uint8

const (
	hitsTotal hitKind = iota
	hitsDay
	hitsWeek
	hitsMonth
	numHitKinds
)

// hitKindOf is the kind s sorts by.
func hitKindOf(s catalog.Sort) (hitKind, bool) {
	switch s {
	case catalog.SortHits:
		return hitsTotal, true
	case catalog.SortHitsDay:
		return hitsDay, true
	case catalog.SortHitsWeek:
		return hitsWeek, true
	case catalog.SortHitsMonth:
		return hitsMonth, true
	}
	return 0, false
}

// period is the first day of the kind's period holding day (0 for the
// total, which never ends).
func (k hitKind) period(day catalog.HitDay) catalog.HitDay {
	switch k {
	case hitsDay:
		return day
	case hitsWeek:
		return day.WeekStart()
	case hitsMonth:
		return day.MonthStart()
	}
	return 0
}

// hitRec is a movie's counts as stored (catalog.Hits), clamped to
// uint32; the zero value is a movie never counted.
type hitRec struct {
	n  [numHitKinds]uint32
	on uint32 // catalog.Hits.On
}

// packHits is h in hitRec's form.
func packHits(h catalog.Hits) hitRec {
	var r hitRec
	for i, n := range [numHitKinds]int64{h.Total, h.Day, h.Week, h.Month} {
		r.n[i] = uint32(min(max(n, 0), math.MaxUint32))
	}
	r.on = uint32(min(max(int64(h.On), 0), math.MaxUint32))
	return r
}

// hitCounts is the counts of the movies that have any, by id: memory
// in proportion to the movies played, none for a catalog without
// plays. A frozen view (freeze.go) shares the map, which is copied
// before the next change (shared).
type hitCounts struct {
	m      map[uint32]hitRec
	shared bool
}

func (c *hitCounts) get(id uint32) hitRec { return c.m[id] }

// set makes r id's counts (the zero hitRec: none).
func (c *hitCounts) set(id uint32, r hitRec) {
	if c.shared || c.m == nil {
		c.m, c.shared = maps.Clone(c.m), false
		if c.m == nil {
			c.m = map[uint32]hitRec{}
		}
	}
	if r == (hitRec{}) {
		delete(c.m, id)
		return
	}
	c.m[id] = r
}

// freeze gives a view the map as it is; the next change copies it.
func (c *hitCounts) freeze() hitCounts {
	c.shared = true
	return hitCounts{m: c.m, shared: true}
}

// bytes is roughly the memory the map holds: an entry of 24 bytes,
// a control byte, at most 7/8 full.
func (c *hitCounts) bytes() int64 { return int64(len(c.m)) * 25 * 8 / 7 }

// setHits makes r id's counts, in the hit orders too; id has
// attributes (a movie in the index).
func (f *facets) setHits(id uint32, r hitRec) {
	old := f.counts.get(id)
	if old == r {
		return
	}
	f.removeHits(id, old)
	f.counts.set(id, r)
	f.putHits(id, r)
}

// ApplyHits brings the index up to date with hit batches: each movie's
// counts become the stored ones given, in the hit orders too, and
// nothing else of the movie is read or changed. An id the index does
// not hold as a movie is skipped: its whole change (an add, a delete)
// comes through Apply.
func (ix *Index) ApplyHits(hits []catalog.HitsOf) {
	if len(hits) == 0 {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.facets.settle()
	for _, h := range hits {
		if h.ID <= 0 || h.ID > MaxID || !ix.facets.byID.get(uint32(h.ID)).set {
			continue
		}
		ix.facets.setHits(uint32(h.ID), packHits(h.Hits))
	}
}

// hitOrder is one kind's order: the (count, id) keys of the records
// with a positive count in period, and their ids.
type hitOrder struct {
	period catalog.HitDay
	order  changeOrder
	ids    *roaring.Bitmap
}

func newHitOrders() [numHitKinds]hitOrder {
	var h [numHitKinds]hitOrder
	for i := range h {
		h[i].ids = roaring.New()
	}
	return h
}

// putHits adds id, with counts r, to the hit orders.
func (f *facets) putHits(id uint32, r hitRec) {
	for k := range numHitKinds {
		n := r.n[k]
		if n == 0 {
			continue
		}
		o := &f.hits[k]
		p := k.period(catalog.HitDay(r.on))
		switch {
		case p < o.period:
			continue // a count of an ended period is 0
		case p > o.period:
			o.order = changeOrder{settled: o.order.settled}
			o.ids = roaring.New()
			o.period = p
		}
		o.order.add(orderKey(n, id))
		o.ids.Add(id)
	}
}

// removeHits takes id, with counts r, out of the hit orders.
func (f *facets) removeHits(id uint32, r hitRec) {
	for k := range numHitKinds {
		if o := &f.hits[k]; r.n[k] != 0 && o.ids.Contains(id) {
			o.order.remove(orderKey(r.n[k], id))
			o.ids.Remove(id)
		}
	}
}

// rebuildHits makes the hit orders from the counts, for an index read
// from its file (which keeps the counts, not the orders).
func (f *facets) rebuildHits() {
	f.hits = newHitOrders()
	for id, r := range f.counts.m {
		f.putHits(id, r)
	}
	for k := range f.hits {
		f.hits[k].order.settle()
	}
}

// today is q's UTC day: q.Today, else the clock's.
func (q Query) today() catalog.HitDay {
	if q.Today != 0 {
		return q.Today
	}
	return catalog.HitDayOf(time.Now())
}

// hitsPage is the page of m (nil: every record) by kind's counts,
// highest first, then id, highest first.
func (ix *Index) hitsPage(m matchSet, kind hitKind, q Query) Result {
	o := &ix.facets.hits[kind]
	if kind != hitsTotal && o.period != kind.period(q.today()) {
		return newPage(ix, m, q) // every count is 0
	}
	var mb *roaring.Bitmap // m as a bitmap, nil for every record
	switch s := m.(type) {
	case bitmapSet:
		mb = s.b
	case sliceSet:
		mb = roaring.BitmapOf(s...)
	}
	all, counted := ix.all, int64(o.order.len())
	if mb != nil {
		all, counted = mb, int64(o.ids.AndCardinality(mb))
	}
	res := Result{Total: int64(all.GetCardinality()), IDs: []int64{}}
	skip, want := q.Offset, q.Limit
	if skip < counted && want > 0 {
		if mb == nil {
			// The order itself, walked down from the page's first key.
			o.order.walk(o.order.len()-1-int(skip), true, func(k uint64) bool {
				res.IDs = append(res.IDs, int64(uint32(k)))
				want--
				return want > 0
			})
		} else {
			o.order.walk(o.order.len()-1, true, func(k uint64) bool {
				id := uint32(k)
				if !mb.Contains(id) {
					return true
				}
				if skip > 0 {
					skip--
					return true
				}
				res.IDs = append(res.IDs, int64(id))
				want--
				return want > 0
			})
		}
		skip = 0
	} else {
		skip -= counted
	}
	if want <= 0 {
		return res
	}
	// The records at 0, id descending, by rank.
	if mb == nil {
		// Every record: o.ids are among them, so the rest below x
		// counts all's minus o.ids'; no copy of a million ids.
		n := int64(all.GetCardinality()) - counted
		for i := skip; i < n && want > 0; i++ {
			res.IDs = append(res.IDs, int64(selectWithout(all, o.ids, uint64(n-1-i))))
			want--
		}
		return res
	}
	rest := roaring.AndNot(all, o.ids)
	if n := int64(rest.GetCardinality()); skip < n {
		res.IDs = bitmapDown(rest, res.IDs, n-skip-min(want, n-skip), n-skip)
	}
	return res
}

// selectWithout is the id of rank r (from 0, ascending) in all minus
// sub, sub within all: the least x with r+1 such ids at or below it.
func selectWithout(all, sub *roaring.Bitmap, r uint64) uint32 {
	lo, hi := uint64(0), uint64(all.Maximum())
	for lo < hi {
		mid := lo + (hi-lo)/2
		if all.Rank(uint32(mid))-sub.Rank(uint32(mid)) > r {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uint32(lo)
}

// newPage is the page of m (nil: every record) in id order, highest first.
func newPage(ix *Index, m matchSet, q Query) Result {
	if m == nil {
		m = bitmapSet{ix.all}
	}
	return page(m.len(), q.Offset, q.Limit, m.down)
}

// bytes is roughly the memory the hit orders hold.
func (o *hitOrder) bytes() int64 {
	return int64(o.order.len())*8 + int64(o.ids.GetSizeInBytes())
}

// freeze is a view of o sharing its blocks and containers.
func (o *hitOrder) freeze() hitOrder {
	return hitOrder{period: o.period, order: o.order.freeze(), ids: shareClone(o.ids)}
}
