package search

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// Facets (contract 12) are the values of one field with the number of
// records of a list that have each, most first, then by value. The
// counts come from the sets the filters use: without a filter a set's
// size, the answer kept until the index changes (facetOrders); under a
// filter that leaves few records their values are tallied one record at
// a time (the ids after each title in the arena, the attributes, the
// group), otherwise each value's set is counted against the result
// (AndCardinality). The order is one sort of packed integers: a field's
// values are kept sorted by spelling (valueOrder), so that count first,
// then that rank, is the contract's order.

// FacetYear and FacetPlatform are Facet's fields besides the
// catalog.ValueFields' names: a movie's four-digit year, a clip's
// platform.
const (
	FacetYear     = "year"
	FacetPlatform = "platform"
)

// FacetPage is a page of a facet's values and their distinct number.
type FacetPage struct {
	Values []catalog.FacetValue
	Total  int64
}

// Facet is the page at [q.Offset, q.Offset+q.Limit) of field's values
// (a catalog.ValueField's name, FacetYear or FacetPlatform) over the
// records q selects (q's order is not used), with the pinyin fallback
// of Find for its terms.
func (ix *Index) Facet(field string, q Query) FacetPage {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return withPinyin(q, func(q Query) (FacetPage, bool) {
		p, matched := ix.facet(field, q)
		return p, matched > 0
	})
}

// facetSet is one value of a facet: its key (what a record's tally
// gives) and set.
type facetSet struct {
	key uint32
	set *roaring.Bitmap
}

// facetField is how a facet reads one field: its values' sets in
// spelling order, the keys of one record's values (tally) and the
// spelling of a key.
type facetField struct {
	sets  func() []facetSet
	tally func(id uint32, fn func(key uint32))
	spell func(key uint32) string
	keys  int             // every key is below it
	order func() []uint32 // every key, in spelling order
}

// facetEntry is one value of a facet's answer: its key and count (a
// count is at most MaxID).
type facetEntry struct{ key, count uint32 }

// facet is Facet without the fallback, and the number of records q
// matched; the read lock is held.
func (ix *Index) facet(field string, q Query) (FacetPage, int64) {
	p := FacetPage{Values: []catalog.FacetValue{}}
	ff, ok := ix.facetField(field)
	if !ok {
		return p, 1
	}
	q.Sort = catalog.SortNew // no order: every filter (Since too) is a set
	m, done, ok := ix.matching(q)
	if !ok {
		return p, 0
	}
	defer done()
	var entries []facetEntry
	matched := int64(ix.all.GetCardinality())
	switch {
	case m == nil:
		// No filter and no term: the same answer until the index
		// changes, computed once (facetOrders).
		entries = ix.facetOrders.get(field, func() []facetEntry { return countSets(ff, nil) })
	case m.len() <= tallyMax || m.len() <= tallyShare*int64(ff.keys):
		matched, entries = m.len(), tallyValues(ff, m)
	default:
		var mb *roaring.Bitmap
		switch s := m.(type) {
		case bitmapSet:
			mb = s.b
		case sliceSet:
			mb = roaring.BitmapOf(s...)
		}
		matched, entries = int64(mb.GetCardinality()), countSets(ff, mb)
	}
	p.Total = int64(len(entries))
	for i := q.Offset; i < min(q.Offset+q.Limit, p.Total); i++ {
		p.Values = append(p.Values, catalog.FacetValue{Value: ff.spell(entries[i].key), Count: int64(entries[i].count)})
	}
	return p, matched
}

// tallyValues is the facet of m's few records: their values tallied one
// record at a time, then sorted by count, then spelling.
func tallyValues(ff facetField, m matchSet) []facetEntry {
	counts := make([]uint32, ff.keys)
	m.each(func(id uint32) { ff.tally(id, func(k uint32) { counts[k]++ }) })
	// Count descending, then spelling: the rank in the field's order,
	// packed into one integer each.
	keys := ff.order()
	var packed []uint64
	for i, k := range keys {
		if n := counts[k]; n > 0 {
			packed = append(packed, uint64(^n)<<32|uint64(i))
		}
	}
	slices.Sort(packed)
	entries := make([]facetEntry, len(packed))
	for i, o := range packed {
		entries[i] = facetEntry{keys[uint32(o)], ^uint32(o >> 32)}
	}
	return entries
}

// countSets is the facet of the records in mb (nil: every record): each
// value's set counted against it.
func countSets(ff facetField, mb *roaring.Bitmap) []facetEntry {
	// The sets are in spelling order: count descending, then that
	// rank, packed into one integer each.
	sets := ff.sets()
	order := make([]uint64, 0, len(sets))
	for i, c := range sets {
		n := c.set.GetCardinality()
		if mb != nil {
			n = c.set.AndCardinality(mb)
		}
		if n > 0 {
			order = append(order, uint64(^uint32(n))<<32|uint64(i))
		}
	}
	slices.Sort(order)
	entries := make([]facetEntry, len(order))
	for i, o := range order {
		entries[i] = facetEntry{sets[uint32(o)].key, ^uint32(o >> 32)}
	}
	return entries
}

// facetOrders is every field's facet with no filter and no term (an
// "all actresses" page, each of its pages), kept from its first read
// until the index next changes: it is the same answer meanwhile, and
// counting each value's set of a large field costs tens of
// milliseconds (BENCHMARKS.md). Concurrent first reads of a field share
// one computation. What must stay true: every change to the index's
// records (Build, Apply) calls reset under the write lock, so no read
// sees an order of an earlier version. Memory: 8 bytes per value that
// some record has, for each field read; a value belongs to one field,
// so at most 8 bytes per distinct value (plus the years and platforms
// in use) in all, less than the values table holds.
type facetOrders struct {
	mu     sync.Mutex
	fields map[string]func() []facetEntry // sync.OnceValue: a panic repeats to every caller
}

// get is field's facet, computed by compute on its first read since the
// last reset; the read lock is held.
func (c *facetOrders) get(field string, compute func() []facetEntry) []facetEntry {
	c.mu.Lock()
	f, ok := c.fields[field]
	if !ok {
		if c.fields == nil {
			c.fields = map[string]func() []facetEntry{}
		}
		f = sync.OnceValue(compute)
		c.fields[field] = f
	}
	c.mu.Unlock()
	return f()
}

// reset forgets every field's facet: the index is changing. The write
// lock is held, so no computation is under way.
func (c *facetOrders) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.fields)
}

// A facet tallies the values of the records a filter leaves one by one
// when they are at most tallyMax, or at most tallyShare per value of the
// field: counting one value's set against them (AndCardinality) costs
// about what tallying that many records does.
const (
	tallyMax   = 200_000
	tallyShare = 50
)

// facetField is how Facet reads field; ok is false for an unknown one.
func (ix *Index) facetField(field string) (ff facetField, ok bool) {
	switch field {
	case FacetYear:
		f := ix.facets
		return facetField{
			sets: func() (out []facetSet) {
				for _, k := range f.sets.keys(func(a, b facetKey) int { return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.value, b.value)) }) {
					if b := f.sets.get(k); k.kind == facetYear && k.value != 0 && b != nil {
						out = append(out, facetSet{k.value, b})
					}
				}
				return out
			},
			tally: func(id uint32, fn func(uint32)) {
				if a := f.byID.get(id); a.year != 0 {
					fn(uint32(a.year))
				}
			},
			spell: func(k uint32) string { return fmt.Sprintf("%04d", k-1) },
			keys:  10_001,
			order: func() []uint32 {
				out := make([]uint32, 10_000)
				for i := range out {
					out[i] = uint32(i + 1)
				}
				return out
			},
		}, true
	case FacetPlatform:
		return facetField{
			sets: func() (out []facetSet) {
				for i, name := range ix.names {
					if b := ix.groups.get(name); name != "" && b != nil {
						out = append(out, facetSet{uint32(i + 1), b})
					}
				}
				slices.SortFunc(out, func(a, b facetSet) int { return cmp.Compare(ix.names[a.key-1], ix.names[b.key-1]) })
				return out
			},
			tally: func(id uint32, fn func(uint32)) {
				if sp, ok := ix.docs.get(id); ok && ix.names[sp.group-1] != "" {
					fn(uint32(sp.group))
				}
			},
			spell: func(k uint32) string { return ix.names[k-1] },
			keys:  len(ix.names) + 1,
			order: func() []uint32 {
				out := make([]uint32, len(ix.names))
				for i := range out {
					out[i] = uint32(i + 1)
				}
				slices.SortFunc(out, func(a, b uint32) int { return cmp.Compare(ix.names[a-1], ix.names[b-1]) })
				return out
			},
		}, true
	}
	vf, ok := catalog.ValueFieldNamed(field)
	if !ok {
		return ff, false
	}
	vs := &ix.values
	return facetField{
		sets: func() (out []facetSet) {
			for _, v := range vs.order(vf) {
				if b := vs.set(v); b != nil {
					out = append(out, facetSet{v, b})
				}
			}
			return out
		},
		tally: func(id uint32, fn func(uint32)) {
			if sp, ok := ix.docs.get(id); ok {
				eachID(ix.arena.valueIDs(sp), func(v uint32) {
					if vs.list[v-1].field == vf {
						fn(v)
					}
				})
			}
		},
		spell: func(k uint32) string { return vs.list[k-1].spelling },
		keys:  len(vs.list) + 1,
		order: func() []uint32 { return vs.order(vf) },
	}, true
}

// valueOrder is a field's value ids sorted by spelling, as of the first
// n of them (values.byField only grows, so n tells whether it is
// current). Searches sort under the index's read lock, hence its own.
type valueOrder struct {
	mu     sync.Mutex
	fields [catalog.NumValueFields + 1]struct {
		n   int
		ids []uint32
	}
}

// order is field's value ids in spelling order; the read lock is held.
func (vs *values) order(field catalog.ValueField) []uint32 {
	if vs.sorted == nil {
		return nil
	}
	o := vs.sorted
	o.mu.Lock()
	defer o.mu.Unlock()
	all := vs.byField[field]
	f := &o.fields[field]
	if f.n != len(all) {
		ids := slices.Clone(all)
		slices.SortFunc(ids, func(a, b uint32) int {
			return cmp.Or(cmp.Compare(vs.list[a-1].spelling, vs.list[b-1].spelling), cmp.Compare(a, b))
		})
		f.n, f.ids = len(all), ids
	}
	return f.ids
}
