package search

import (
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// Query is one list request: every filter that is set must hold, and
// the page is read from the result in its order.
type Query struct {
	Terms []string // folded and deduplicated (catalog.SearchTerms): every one must occur in the search text
	Group *string  // clips: only this platform
	IDs   []int64  // when not empty: only these ids
	// The movie filters (facets.go); zero is no filter.
	Type  int64   // type id
	Years *[2]int // four-digit years from [0] to [1], inclusive
	Play  int64   // a catalog.PlayKinds bit
	Since int64   // changed at or after, unix seconds
	// Match is the value filters of both kinds (contract 12): each
	// value, folded (catalog.FoldValue), must be one of the record's
	// values of its field.
	Match []catalog.FieldValue
	// Sort is the order (contract 12): catalog.SortNew is id, highest
	// first; SortUpdated is last change first, then id (contract 6),
	// and Ascending reverses it; SortYear and SortScore are the movie's
	// year and score, highest first, then id, highest first, those
	// without one last; SortTitle is the folded title, ascending, then
	// id, highest first (titleorder.go).
	// SortHits and its periods are the play counts (hitsort.go), highest
	// first, then id, highest first; Today is the UTC day whose periods
	// count (0: the clock's).
	Sort          catalog.Sort
	Ascending     bool
	Today         catalog.HitDay
	Offset, Limit int64
}

// Find returns the page at [Offset, Offset+Limit) of the records that
// q selects, in q's order, and their exact number. Terms of Latin
// letters only that select nothing are then matched as pinyin (contract
// 2): as full pinyin, then as initials (catalog.PinyinTerms); the
// result's Terms say which spelling matched.
func (ix *Index) Find(q Query) Result {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	fault("find")
	return withPinyin(q, func(q Query) (Result, bool) {
		r := ix.find(q)
		return r, r.Total > 0
	})
}

// withPinyin is try's answer to q, or, when it matched nothing and q's
// terms are Latin letters only, its answer to them as full pinyin, then
// as initials (catalog.PinyinTerms): the first that matched, else the
// first.
func withPinyin[R any](q Query, try func(Query) (R, bool)) R {
	r, ok := try(q)
	if ok {
		return r
	}
	full, initials, ok := catalog.PinyinTerms(q.Terms)
	if !ok {
		return r
	}
	for _, terms := range [2][]string{full, initials} {
		q.Terms = terms
		if alt, ok := try(q); ok {
			return alt
		}
	}
	return r
}

// find is Find without the pinyin fallback; the read lock is held.
func (ix *Index) find(q Query) Result {
	r := ix.selectPage(q)
	r.Terms = q.Terms
	return r
}

// selectPage is find's page and total.
func (ix *Index) selectPage(q Query) Result {
	m, done, ok := ix.matching(q)
	if !ok {
		return Result{IDs: []int64{}}
	}
	defer done()
	switch q.Sort {
	case catalog.SortUpdated:
		return ix.facets.changePage(m, q)
	case catalog.SortYear:
		return ix.bucketPage(m, facetYear, q)
	case catalog.SortScore:
		return ix.bucketPage(m, facetScore, q)
	case catalog.SortTitle:
		return ix.titlePage(m, q)
	}
	if k, ok := hitKindOf(q.Sort); ok {
		return ix.hitsPage(m, k, q)
	}
	return newPage(ix, m, q)
}

// matching is the records q's filters select, nil when it has none
// (every record), valid until done is called; ok is false when none
// match.
func (ix *Index) matching(q Query) (m matchSet, done func(), ok bool) {
	sets, ok := ix.filters(q)
	if !ok {
		return nil, nil, false
	}
	switch len(sets) {
	case 0:
		return nil, func() {}, true
	case 1:
		return bitmapSet{sets[0].b}, func() {}, true
	}
	// Smallest first: either way the work follows the least data.
	slices.SortFunc(sets, func(a, b filterSet) int {
		return int(int64(a.b.GetCardinality()) - int64(b.b.GetCardinality()))
	})
	if !sparse(sets[1].b) {
		// Roaring's AND of a set with a dense one tests bits
		// already: as fast as probing, with no copy to make.
		bs := make([]*roaring.Bitmap, len(sets))
		for i, f := range sets {
			bs[i] = f.b
		}
		return bitmapSet{roaring.FastAnd(bs...)}, func() {}, true
	}
	ids := intersect(&ix.dense, sets)
	return sliceSet(*ids), func() { release(ids) }, true
}

// filterSet is one of the sets a query intersects: a search term's
// (term set) or another filter's.
type filterSet struct {
	b    *roaring.Bitmap
	term string
}

// filters are the sets whose intersection q selects; ok is false when
// one of them is empty (nothing matches).
func (ix *Index) filters(q Query) (sets []filterSet, ok bool) {
	sets = make([]filterSet, 0, len(q.Terms)+4)
	add := func(b *roaring.Bitmap) bool {
		if b == nil || b.IsEmpty() {
			return false
		}
		sets = append(sets, filterSet{b: b})
		return true
	}
	f := ix.facets
	if q.Group != nil && !add(ix.groups.get(*q.Group)) {
		return nil, false
	}
	if len(q.IDs) > 0 && !add(ix.present(q.IDs)) {
		return nil, false
	}
	if q.Type != 0 && (q.Type < 0 || q.Type > MaxID || !add(f.set(facetType, uint32(q.Type)))) {
		return nil, false
	}
	if q.Years != nil && !add(f.years(q.Years[0], q.Years[1])) {
		return nil, false
	}
	if q.Play != 0 && (q.Play < 0 || q.Play > 1<<7 || !add(f.set(facetPlay, uint32(q.Play)))) {
		return nil, false
	}
	for _, m := range q.Match {
		if !add(ix.values.set(ix.values.lookup(m.Field, m.Value))) {
			return nil, false
		}
	}
	// In change order the time filter is a range of the order
	// (changePage); in id order it is a set.
	if q.Since != 0 && q.Sort != catalog.SortUpdated && !add(f.since(q.Since)) {
		return nil, false
	}
	for _, t := range q.Terms {
		if !add(ix.match(t)) {
			return nil, false
		}
		sets[len(sets)-1].term = t
	}
	return sets, true
}

// present is the ids of records in the index among ids.
func (ix *Index) present(ids []int64) *roaring.Bitmap {
	b := roaring.New()
	for _, id := range ids {
		if id > 0 && id <= MaxID && ix.all.Contains(uint32(id)) {
			b.Add(uint32(id))
		}
	}
	return b
}

// matchSet is a query's result before paging, ids ascending.
type matchSet interface {
	len() int64
	// down appends to dst the ids of the ranks [lo, hi) counted from
	// the bottom (0 <= lo <= hi <= len), highest first: a page.
	down(dst []int64, lo, hi int64) []int64
	has(id uint32) bool
	each(fn func(id uint32))
	dense(bits []uint64) // sets the bits of the ids below 64*len(bits)
}

type bitmapSet struct{ b *roaring.Bitmap }

func (s bitmapSet) len() int64 { return int64(s.b.GetCardinality()) }

func (s bitmapSet) down(dst []int64, lo, hi int64) []int64 { return bitmapDown(s.b, dst, lo, hi) }
func (s bitmapSet) has(id uint32) bool                     { return s.b.Contains(id) }
func (s bitmapSet) each(fn func(uint32)) {
	s.b.Iterate(func(id uint32) bool { fn(id); return true })
}

func (s bitmapSet) dense(bits []uint64) {
	if s.b.IsEmpty() {
		return
	}
	if int(s.b.DenseSize()/8) <= len(bits) {
		s.b.WriteDenseTo(bits)
		return
	}
	s.each(func(id uint32) {
		if w := int(id >> 6); w < len(bits) {
			bits[w] |= 1 << (id & 63)
		}
	})
}

type sliceSet []uint32

func (s sliceSet) len() int64         { return int64(len(s)) }
func (s sliceSet) has(id uint32) bool { _, ok := slices.BinarySearch(s, id); return ok }
func (s sliceSet) each(fn func(uint32)) {
	for _, id := range s {
		fn(id)
	}
}

func (s sliceSet) down(dst []int64, lo, hi int64) []int64 { return sliceDown(dst, s[lo:hi]) }

func (s sliceSet) dense(bits []uint64) {
	for _, id := range s {
		if w := int(id >> 6); w < len(bits) {
			bits[w] |= 1 << (id & 63)
		}
	}
}

// narrowShare is the share of the change order under which a result is
// ordered by sorting its own keys rather than by walking the order (a
// bit test per key): sorting n keys costs about what walking 64n does.
const narrowShare = 64

// changePage is the page of m (nil: every record with attributes) in
// change order, from q.Since on, and its exact number.
func (f *facets) changePage(m matchSet, q Query) Result {
	n := f.order.len()
	lo := 0 // the order's ranks from lo on are at or after q.Since
	switch {
	case q.Since > math.MaxUint32:
		lo = n
	case q.Since > 0:
		lo = f.order.rank(orderKey(uint32(q.Since), 0))
	}
	if m == nil {
		// The order itself: ranks lo and up, walked from the page's
		// first key.
		return page(int64(n-lo), q.Offset, q.Limit, func(dst []int64, a, b int64) []int64 {
			from, down := lo+int(b)-1, true
			if q.Ascending {
				from, down = n-int(b), false // page counts from the top
			}
			left := b - a
			f.order.walk(from, down, func(k uint64) bool {
				dst = append(dst, int64(uint32(k)))
				left--
				return left > 0
			})
			return dst
		})
	}
	if m.len()*narrowShare <= int64(n) {
		keys := make([]uint64, 0, m.len())
		m.each(func(id uint32) {
			if a := f.byID.get(id); a.set && int64(a.changed) >= q.Since {
				keys = append(keys, orderKey(a.changed, id))
			}
		})
		slices.Sort(keys)
		if q.Ascending {
			slices.Reverse(keys) // page counts from the top
		}
		return page(int64(len(keys)), q.Offset, q.Limit, func(dst []int64, a, b int64) []int64 {
			return sliceDown(dst, keys[a:b])
		})
	}
	return f.walkPage(m, q, lo)
}

// walkPage pages m in change order by walking the order's blocks from
// rank lo (or down to it), testing each id against a bit array of m.
// The total is m's size when the range is the whole order; else the
// walk goes on to the end of the range to count.
func (f *facets) walkPage(m matchSet, q Query, lo int) Result {
	bits := getBits(int(f.timed.Maximum()/64) + 1)
	defer putBits(bits)
	m.dense(bits)
	res := Result{IDs: []int64{}}
	end := q.Offset + q.Limit
	counted := lo > 0
	hit := func(k uint64) bool { // reports whether the walk goes on
		id := uint32(k)
		if bits[id>>6]&(1<<(id&63)) == 0 {
			return true
		}
		if res.Total >= q.Offset && res.Total < end {
			res.IDs = append(res.IDs, int64(id))
		}
		res.Total++
		return counted || res.Total < end
	}
	blocks := f.order.blocks
	if q.Ascending {
		skip := lo
		for _, c := range blocks {
			b := c.vals
			if skip >= len(b) {
				skip -= len(b)
				continue
			}
			for _, k := range b[skip:] {
				if !hit(k) {
					goto done
				}
			}
			skip = 0
		}
	} else {
		left := f.order.len() - lo // the keys of ranks lo and up
		for bi := len(blocks) - 1; bi >= 0 && left > 0; bi-- {
			b := blocks[bi].vals
			for i := len(b) - 1; i >= 0 && left > 0; i-- {
				left--
				if !hit(b[i]) {
					goto done
				}
			}
		}
	}
done:
	if !counted {
		res.Total = m.len()
	}
	return res
}
