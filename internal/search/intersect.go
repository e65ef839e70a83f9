package search

import (
	"strings"
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
// in a slice to give back with release. The bit copy of a term's set is
// kept in dense for the next query with that term.
func intersect(dense *denseSets, sets []filterSet) *[]uint32 {
	small := sets[0].b
	n := small.GetCardinality()
	type probe struct {
		bits []uint64 // a dense copy of set, or nil: ask set
		set  *roaring.Bitmap
		own  bool // bits is this query's, to give back
	}
	probes := make([]probe, 0, 4)
	for _, f := range sets[1:] {
		p := probe{set: f.b}
		// A dense set, or one far larger than the smallest, is cheaper
		// to ask (only for the ids that passed the sets before it) than
		// to copy.
		if sparse(f.b) && f.b.GetCardinality() <= 64*n {
			if p.bits = dense.get(f.term); p.bits == nil {
				p.bits = getBits(int(f.b.DenseSize()))
				f.b.WriteDenseTo(p.bits)
				p.own = !dense.keep(f.term, p.bits)
			}
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
		if p.own {
			putBits(p.bits)
		}
	}
	return out
}

// maxDenseBytes bounds the bit copies an index keeps (a copy is an id
// range's bits: 128 KiB at a million ids).
const maxDenseBytes = 32 << 20

// denseSets keeps the bit copies of term sets that intersections made,
// by term, so that the frequent terms of a search mix are copied once
// rather than per query. A copy is read-only once kept. The index drops
// the copy of every term a changed title held or holds (forget), under
// its write lock, so no query holds a copy then.
type denseSets struct {
	mu    sync.Mutex
	bits  map[string][]uint64
	bytes int
}

func (d *denseSets) get(term string) []uint64 {
	if term == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bits[term]
}

// keep keeps bits as term's copy, unless the bound is reached (then all
// copies are dropped first, and bits kept if it fits alone); it reports
// whether bits was kept.
func (d *denseSets) keep(term string, bits []uint64) bool {
	size := 8 * len(bits)
	if term == "" || size > maxDenseBytes {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.bits[term]; ok {
		return false // another query kept it first
	}
	if d.bytes+size > maxDenseBytes || d.bits == nil {
		// Dropped, not pooled: queries under the read lock may be
		// reading them.
		d.bits, d.bytes = map[string][]uint64{}, 0
	}
	d.bits[term] = bits
	d.bytes += size
	return true
}

// forget drops the copies of the terms title contains; the caller holds
// the index's write lock.
func (d *denseSets) forget(title string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for term, bits := range d.bits {
		if strings.Contains(title, term) {
			delete(d.bits, term)
			d.bytes -= 8 * len(bits)
			putBits(bits) // no query reads it: the caller holds the write lock
		}
	}
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
