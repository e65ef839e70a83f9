package search

import (
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// A search of several words intersects their sets. Roaring merges two
// sparse sets (array containers) element by element, a branchy loop
// that took about half of the CPU of a search of two or three words,
// and allocates a result as large as the smaller set, most of it
// garbage at once (a random pair of words often has no title in
// common). When the smallest set is sparse, it is cheaper to write each
// other set into a plain bit array (sequential stores, or a copy of its
// dense containers) and test the smallest set's ids against those bits,
// collecting the matches into a reused slice: nothing is allocated in
// proportion to the sets.

// maxPooledIDs bounds the id slices kept for reuse (4 MiB), so that one
// huge intersection does not pin its slice.
const maxPooledIDs = 1 << 20

var (
	bitsPool sync.Pool // *[]uint64, zeroed
	idsPool  sync.Pool // *[]uint32
)

// sparse reports whether b's ids are spread thinly enough (under one in
// sixteen of the id range, the density below which roaring keeps a
// container as an array) for probing to beat roaring's own AND.
func sparse(b *roaring.Bitmap) bool {
	return b.GetCardinality()*16 < uint64(b.Maximum())+1
}

// intersect returns the ids in every one of sets (at least two, in
// ascending order of size, none empty, the first two sparse), ascending,
// in a slice to give back with release.
func intersect(sets []*roaring.Bitmap) *[]uint32 {
	small := sets[0]
	n := small.GetCardinality()
	type probe struct {
		bits []uint64 // a dense copy of set, or nil: ask set
		set  *roaring.Bitmap
	}
	probes := make([]probe, 0, 4)
	for _, s := range sets[1:] {
		p := probe{set: s}
		// A dense set, or one far larger than the smallest, is cheaper
		// to ask (only for the ids that passed the sets before it) than
		// to copy.
		if sparse(s) && s.GetCardinality() <= 64*n {
			p.bits = getBits(int(s.DenseSize()))
			s.WriteDenseTo(p.bits)
		}
		probes = append(probes, p)
	}
	out := getIDs()
	var buf [256]uint32
	it := small.ManyIterator()
	for {
		k := it.NextMany(buf[:])
		if k == 0 {
			break
		}
	next:
		for _, id := range buf[:k] {
			for _, p := range probes {
				if p.bits != nil {
					w := int(id >> 6)
					if w >= len(p.bits) || p.bits[w]&(1<<(id&63)) == 0 {
						continue next
					}
				} else if !p.set.Contains(id) {
					continue next
				}
			}
			*out = append(*out, id)
		}
	}
	for _, p := range probes {
		if p.bits != nil {
			putBits(p.bits)
		}
	}
	return out
}

func getBits(words int) []uint64 {
	if p, ok := bitsPool.Get().(*[]uint64); ok && cap(*p) >= words {
		return (*p)[:words]
	}
	return make([]uint64, words)
}

func putBits(b []uint64) {
	clear(b)
	bitsPool.Put(&b)
}

func getIDs() *[]uint32 {
	if p, ok := idsPool.Get().(*[]uint32); ok {
		*p = (*p)[:0]
		return p
	}
	return new([]uint32)
}

func release(ids *[]uint32) {
	if cap(*ids) <= maxPooledIDs {
		idsPool.Put(ids)
	}
}
