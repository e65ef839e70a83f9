package search

import (
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Query is one list request: every filter that is set must hold, and
// the page is read from the result in its order.
type Query struct {
	Terms []string // folded and deduplicated (catalog.SearchTerms): every one must occur in the title
	Group *string  // clips: only this platform
	IDs   []int64  // when not empty: only these ids
	// The movie filters (facets.go); zero is no filter.
	Type  int64   // type id
	Years *[2]int // four-digit years from [0] to [1], inclusive
	Play  int64   // a catalog.PlayKinds bit
	Since int64   // changed at or after, unix seconds
	// ByChange orders last change first, then id (contract 6);
	// Ascending reverses it. Otherwise the order is id, highest first.
	ByChange, Ascending bool
	Offset, Limit       int64
}

// Search is Find of a title search, optionally in one group.
func (ix *Index) Search(terms []string, group *string, offset, limit int64) Result {
	return ix.Find(Query{Terms: terms, Group: group, Offset: offset, Limit: limit})
}

// Find returns the page at [Offset, Offset+Limit) of the records that
// q selects, in q's order, and their exact number.
func (ix *Index) Find(q Query) Result {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sets, ok := ix.filters(q)
	if !ok {
		return Result{IDs: []int64{}}
	}
	var m matchSet
	switch len(sets) {
	case 0:
		m = bitmapSet{ix.all}
	case 1:
		m = bitmapSet{sets[0]}
	default:
		// Smallest first: either way the work follows the least data.
		slices.SortFunc(sets, func(a, b *roaring.Bitmap) int {
			return int(int64(a.GetCardinality()) - int64(b.GetCardinality()))
		})
		if !sparse(sets[1]) {
			// Roaring's AND of a set with a dense one tests bits
			// already: as fast as probing, with no copy to make.
			m = bitmapSet{roaring.FastAnd(sets...)}
			break
		}
		ids := intersect(sets)
		defer release(ids)
		m = sliceSet(*ids)
	}
	if q.ByChange {
		return ix.facets.changePage(m, q)
	}
	return page(m.len(), q.Offset, q.Limit, m.at)
}

// filters are the sets whose intersection q selects; ok is false when
// one of them is empty (nothing matches).
func (ix *Index) filters(q Query) (sets []*roaring.Bitmap, ok bool) {
	sets = make([]*roaring.Bitmap, 0, len(q.Terms)+4)
	add := func(b *roaring.Bitmap) bool {
		if b == nil || b.IsEmpty() {
			return false
		}
		sets = append(sets, b)
		return true
	}
	f := ix.facets
	if q.Group != nil && !add(ix.groups[*q.Group]) {
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
	if (q.Since != 0 || q.ByChange) && !add(f.since(q.Since)) {
		return nil, false
	}
	for _, t := range q.Terms {
		if !add(ix.match(t)) {
			return nil, false
		}
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
	at(i int64) uint32 // the id of rank i from the bottom
	has(id uint32) bool
	each(fn func(id uint32))
}

type bitmapSet struct{ b *roaring.Bitmap }

func (s bitmapSet) len() int64 { return int64(s.b.GetCardinality()) }

// at is Select: a handful of container steps, however deep the rank.
func (s bitmapSet) at(i int64) uint32 {
	id, _ := s.b.Select(uint32(i))
	return id
}
func (s bitmapSet) has(id uint32) bool { return s.b.Contains(id) }
func (s bitmapSet) each(fn func(uint32)) {
	s.b.Iterate(func(id uint32) bool { fn(id); return true })
}

type sliceSet []uint32

func (s sliceSet) len() int64         { return int64(len(s)) }
func (s sliceSet) at(i int64) uint32  { return s[i] }
func (s sliceSet) has(id uint32) bool { _, ok := slices.BinarySearch(s, id); return ok }
func (s sliceSet) each(fn func(uint32)) {
	for _, id := range s {
		fn(id)
	}
}

// narrowShare is the share of the change order under which a result is
// ordered by sorting its own keys rather than by walking the order:
// sorting n keys costs about what walking 16n does.
const narrowShare = 16

// changePage is the page of m (ids with attributes) in change order.
func (f *facets) changePage(m matchSet, q Query) Result {
	total := m.len()
	res := Result{Total: total, IDs: []int64{}}
	if q.Offset >= total || q.Limit <= 0 {
		return res
	}
	end := min(q.Offset+q.Limit, total)
	res.IDs = make([]int64, 0, end-q.Offset)
	switch {
	case total == int64(f.order.len()):
		// Every record: the order itself, by rank.
		for i := q.Offset; i < end; i++ {
			r := i
			if !q.Ascending {
				r = total - 1 - i
			}
			res.IDs = append(res.IDs, int64(uint32(f.order.at(int(r)))))
		}
	case total*narrowShare <= int64(f.order.len()):
		keys := make([]uint64, 0, total)
		m.each(func(id uint32) { keys = append(keys, orderKey(f.byID.get(id).changed, id)) })
		slices.Sort(keys)
		for i := q.Offset; i < end; i++ {
			r := i
			if !q.Ascending {
				r = total - 1 - i
			}
			res.IDs = append(res.IDs, int64(uint32(keys[r])))
		}
	default:
		from := 0
		if !q.Ascending {
			from = f.order.len() - 1
		}
		var seen int64
		f.order.walk(from, !q.Ascending, func(k uint64) bool {
			if id := uint32(k); m.has(id) {
				if seen >= q.Offset {
					res.IDs = append(res.IDs, int64(id))
				}
				seen++
			}
			return seen < end
		})
	}
	return res
}
