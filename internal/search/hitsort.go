package search

import (
	"math"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// Sorting by plays (contract 12): a movie's counts are part of its
// attrs (attrs.hits, as stored, with the day of its last counted hit),
// and per kind (all time, the UTC day, ISO week and month) the index
// keeps the records whose count is positive in one period, the order's,
// as (count, id) keys sorted like the change order. A page reads that
// order from the top by rank, then the records at 0 (the others) by id,
// highest first: deep pages cost rank reads, never a walk.
//
// Rollover: a period's count of an earlier period reads as 0
// (catalog.Hits.At). A put of a later period than the order's empties
// the order first, and a put of an earlier one adds nothing; a query
// whose current period is not the order's reads the order as empty
// (every record ties at 0: the new order). No job runs at midnight.

// hitKind indexes attrs.hits and facets.hits.
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

// packHits is h in attrs' form: counts clamped to uint32.
func packHits(a *attrs, h catalog.Hits) {
	for i, n := range [numHitKinds]int64{h.Total, h.Day, h.Week, h.Month} {
		a.hits[i] = uint32(min(max(n, 0), math.MaxUint32))
	}
	a.hitsOn = uint32(min(max(int64(h.On), 0), math.MaxUint32))
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

// putHits adds id, with attributes a, to the hit orders.
func (f *facets) putHits(id uint32, a attrs) {
	for k := range numHitKinds {
		n := a.hits[k]
		if n == 0 {
			continue
		}
		o := &f.hits[k]
		p := k.period(catalog.HitDay(a.hitsOn))
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

// removeHits takes id, with attributes a, out of the hit orders.
func (f *facets) removeHits(id uint32, a attrs) {
	for k := range numHitKinds {
		if o := &f.hits[k]; a.hits[k] != 0 && o.ids.Contains(id) {
			o.order.remove(orderKey(a.hits[k], id))
			o.ids.Remove(id)
		}
	}
}

// rebuildHits makes the hit orders from the attributes, for an index
// read from its file (which keeps the counts, not the orders).
func (f *facets) rebuildHits() {
	f.hits = newHitOrders()
	f.timed.Iterate(func(id uint32) bool {
		f.putHits(id, f.byID.get(id))
		return true
	})
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
			// The order itself, from the top, by rank.
			n := o.order.len()
			for i := skip; i < counted && want > 0; i++ {
				res.IDs = append(res.IDs, int64(uint32(o.order.at(n-1-int(i)))))
				want--
			}
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
	n := int64(rest.GetCardinality())
	for i := skip; i < n && want > 0; i++ {
		id, _ := rest.Select(uint32(n - 1 - i))
		res.IDs = append(res.IDs, int64(id))
		want--
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
	return page(m.len(), q.Offset, q.Limit, m.at)
}

// bytes is roughly the memory the hit orders hold.
func (o *hitOrder) bytes() int64 {
	return int64(o.order.len())*8 + int64(o.ids.GetSizeInBytes())
}

// freeze is a view of o sharing its blocks and containers.
func (o *hitOrder) freeze() hitOrder {
	return hitOrder{period: o.period, order: o.order.freeze(), ids: shareClone(o.ids)}
}
