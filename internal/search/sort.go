package search

import (
	"cmp"

	"github.com/RoaringBitmap/roaring/v2"
)

// Sorting by year or score (contract 12) reads the facet sets of the
// attribute as buckets, highest value first, each in id order: a page
// skips whole buckets by their count (under a filter, the count of
// their intersection) and reads the one it lands in by rank, so a deep
// page costs a count per bucket above it, never a walk over records.
// Every record with attributes is in one bucket of each kind, value 0
// holding those without a year or score (the last ones); records
// without attributes (clips) come after them.

// bucketPage is the page of m (nil: every record) in kind's order.
func (ix *Index) bucketPage(m matchSet, kind facetKind, q Query) Result {
	f := ix.facets
	keys := f.sets.keys(func(a, b facetKey) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), -cmp.Compare(a.value, b.value))
	})
	var mb *roaring.Bitmap // m as a bitmap, nil for every record
	switch s := m.(type) {
	case bitmapSet:
		mb = s.b
	case sliceSet:
		mb = roaring.BitmapOf(s...)
	}
	total := int64(ix.all.GetCardinality())
	if mb != nil {
		total = int64(mb.GetCardinality())
	}
	res := Result{Total: total, IDs: []int64{}}
	skip, want := q.Offset, q.Limit
	// take reads the page's part of b (already within m), id descending.
	take := func(b *roaring.Bitmap) {
		n := int64(b.GetCardinality())
		if skip >= n {
			skip -= n
			return
		}
		k := min(want, n-skip)
		res.IDs = bitmapDown(b, res.IDs, n-skip-k, n-skip)
		want -= k
		skip = 0
	}
	within := func(b *roaring.Bitmap) *roaring.Bitmap {
		if mb == nil {
			return b
		}
		return roaring.And(b, mb)
	}
	for _, k := range keys {
		if want <= 0 {
			return res
		}
		if k.kind != kind {
			continue
		}
		b := f.sets.get(k)
		if b == nil {
			continue
		}
		if mb != nil {
			// The count alone decides whether the page reaches b.
			if n := int64(b.AndCardinality(mb)); skip >= n {
				skip -= n
				continue
			}
		}
		take(within(b))
	}
	if want > 0 {
		all := ix.all
		if mb != nil {
			all = mb
		}
		take(roaring.AndNot(all, f.timed))
	}
	return res
}
