package search

import (
	"math"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
)

// The movie lists filter on a movie's type, year, play groups and last
// change, and the resource API (contract 6) pages them last change
// first. The index keeps those attributes per record, a bitmap per
// attribute value (the facets), and every record's (change time, id) in
// order, so that every such list is answered here like a search: the
// exact total from the bitmaps, and a page, however deep, by rank.
//
// Only records with a positive change time have attributes (every
// stored movie; clips have none). A record's attributes change only
// through put and remove, under the index's write lock.

// attrs is what the index keeps of a movie besides its title, packed.
type attrs struct {
	changed uint32 // unix seconds (to 2106)
	typ     uint32 // type id, 0 = none
	year    uint16 // the four-digit year + 1; 0 = none
	play    uint8  // catalog.PlayKinds bits
	set     bool
	score   uint8 // the score in tenths + 1; 0 = none
	_       [3]byte
}

// attrTable maps an id to its attrs.
type attrTable struct{ pageTable[attrs] }

func (t *attrTable) get(id uint32) attrs { return t.at(id) }

// facetKind names an attribute that lists filter on.
type facetKind uint8

const (
	facetType facetKind = iota + 1
	facetYear
	facetPlay  // one facet per PlayKinds bit
	facetScore // by attrs.score
)

type facetKey struct {
	kind  facetKind
	value uint32
}

// facets are the attributes of the records that have them.
type facets struct {
	byID   attrTable
	sets   setMap[facetKey]
	timed  *roaring.Bitmap // every id with attributes: the change order's ids
	order  changeOrder
	counts hitCounts             // the movies' play counts (hitsort.go)
	hits   [numHitKinds]hitOrder // hitsort.go
}

func newFacets() *facets {
	return &facets{sets: newSetMap[facetKey](), timed: roaring.New(), hits: newHitOrders()}
}

// orderKey is a record's place in the change order: time, then id.
func orderKey(changed, id uint32) uint64 { return uint64(changed)<<32 | uint64(id) }

// packAttrs is d's attributes; set is false for a record without a
// change time (a clip).
func packAttrs(d Doc) attrs {
	if d.Changed <= 0 {
		return attrs{}
	}
	a := attrs{changed: uint32(min(d.Changed, math.MaxUint32)), play: uint8(d.Play), set: true}
	if d.Type > 0 && d.Type <= math.MaxUint32 {
		a.typ = uint32(d.Type)
	}
	if y, ok := fourDigitYear(d.Year); ok {
		a.year = y + 1
	}
	if t, ok := scoreTenths(d.Score); ok {
		a.score = t + 1
	}
	return a
}

// scoreTenths reads a score as stored ("0.0" to "10.0", contract 12)
// in tenths; another form is no score.
func scoreTenths(s string) (uint8, bool) {
	n := len(s)
	if n < 3 || n > 4 || s[n-2] != '.' || s[n-1] < '0' || s[n-1] > '9' {
		return 0, false
	}
	t := 0
	for i := 0; i < n-2; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		t = t*10 + int(s[i]-'0')
	}
	t = t*10 + int(s[n-1]-'0')
	if t > 100 {
		return 0, false
	}
	return uint8(t), true
}

// fourDigitYear reads YYYY; a year of another form is no year to the
// year filter (contract 6).
func fourDigitYear(s string) (uint16, bool) {
	if len(s) != 4 {
		return 0, false
	}
	var y uint16
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		y = y*10 + uint16(s[i]-'0')
	}
	return y, true
}

// keys are the facets a record with a is in.
func (a attrs) keys(yield func(facetKey)) {
	if a.typ != 0 {
		yield(facetKey{facetType, a.typ})
	}
	// Value 0 is the records without one: the last of their sort order
	// (sort.go).
	yield(facetKey{facetYear, uint32(a.year)})
	yield(facetKey{facetScore, uint32(a.score)})
	for bit := uint32(1); bit <= 1<<7; bit <<= 1 {
		if uint32(a.play)&bit != 0 {
			yield(facetKey{facetPlay, bit})
		}
	}
}

// add records d's attributes and play counts; id must have none yet.
func (f *facets) add(id uint32, d Doc) {
	if a := packAttrs(d); a.set {
		f.put(id, a)
		f.setHits(id, packHits(d.Hits))
	}
}

// put records a, id's attributes; id must have none yet.
func (f *facets) put(id uint32, a attrs) {
	f.byID.set(id, a)
	a.keys(func(k facetKey) { f.sets.forWrite(k, nil).Add(id) })
	f.timed.Add(id)
	f.order.add(orderKey(a.changed, id))
}

// remove forgets id's attributes.
func (f *facets) remove(id uint32) {
	a := f.byID.get(id)
	if !a.set {
		return
	}
	a.keys(func(k facetKey) {
		if f.sets.get(k) != nil {
			f.sets.forWrite(k, nil).Remove(id)
			f.sets.dropEmpty(k, false)
		}
	})
	f.timed.Remove(id)
	f.order.remove(orderKey(a.changed, id))
	f.setHits(id, hitRec{})
	f.byID.set(id, attrs{})
}

// settle ends a bulk build: the change order is sorted and the sets
// compressed once. Later calls (every Apply) do nothing, so a catch-up
// costs its changes only. A build's sets are all on top.
func (f *facets) settle() {
	if f.order.settled {
		return
	}
	f.order.settle()
	for k := range f.hits {
		f.hits[k].order.settle()
	}
	f.timed = settled(f.timed)
	f.sets.settle()
}

// set is the facet's ids, or nil when no record has it.
func (f *facets) set(kind facetKind, value uint32) *roaring.Bitmap {
	return f.sets.get(facetKey{kind, value})
}

// years is the union of the year facets in [from, to], or nil when no
// record has one of them.
func (f *facets) years(from, to int) *roaring.Bitmap {
	var sets []*roaring.Bitmap
	for y := max(from, 0); y <= min(to, 9999); y++ {
		if b := f.sets.get(facetKey{facetYear, uint32(y) + 1}); b != nil {
			sets = append(sets, b)
		}
	}
	switch len(sets) {
	case 0:
		return nil
	case 1:
		return sets[0]
	}
	return roaring.FastOr(sets...)
}

// since is the ids changed at or after the unix time t: the top of the
// change order.
func (f *facets) since(t int64) *roaring.Bitmap {
	if t <= 0 {
		return f.timed
	}
	if t > math.MaxUint32 {
		return roaring.New()
	}
	from := f.order.rank(orderKey(uint32(t), 0))
	if from == 0 {
		return f.timed
	}
	// A bit array, then one bitmap of it: no sort, no insert per id.
	bits := getBits(int(f.timed.Maximum()/64) + 1)
	defer putBits(bits)
	f.order.walk(from, false, func(k uint64) bool {
		id := uint32(k)
		bits[id>>6] |= 1 << (id & 63)
		return true
	})
	return roaring.FromDense(bits, true)
}

// blockMax is the most keys one block of a changeOrder holds: small
// enough that an insert moves little, large enough that a walk over the
// blocks' lengths (rank, select) stays short at ten million records.
var blockMax = 4096

// changeOrder is the sorted, distinct order keys, in blocks,
// with rank and select by a walk over the blocks. Writes land anywhere
// (a record's old key goes, its new one arrives at the top), so one
// sorted slice would move megabytes per write.
type changeOrder struct {
	blocks  []chunk[uint64] // each sorted and non-empty; block i's keys < block i+1's
	n       int
	pending []uint64 // keys added before settle, unsorted
	settled bool
}

func (o *changeOrder) len() int { return o.n }

// settle sorts the keys added in bulk into blocks; later adds insert.
func (o *changeOrder) settle() {
	if o.settled {
		return
	}
	o.settled = true
	slices.Sort(o.pending)
	for len(o.pending) > 0 {
		n := min(len(o.pending), blockMax/2)
		o.blocks = append(o.blocks, chunk[uint64]{vals: slices.Clone(o.pending[:n])})
		o.pending = o.pending[n:]
	}
	o.pending = nil
}

// block is the block k belongs in: the first whose last key is at or
// above k, else the last.
func (o *changeOrder) block(k uint64) int {
	i := sort.Search(len(o.blocks), func(i int) bool { b := o.blocks[i].vals; return b[len(b)-1] >= k })
	return min(i, len(o.blocks)-1)
}

func (o *changeOrder) add(k uint64) {
	o.n++
	if !o.settled {
		o.pending = append(o.pending, k)
		return
	}
	if len(o.blocks) == 0 {
		o.blocks = []chunk[uint64]{{vals: []uint64{k}}}
		return
	}
	bi := o.block(k)
	b := o.blocks[bi].writable()
	i, _ := slices.BinarySearch(b, k)
	b = slices.Insert(b, i, k)
	if len(b) <= blockMax {
		o.blocks[bi].vals = b
		return
	}
	half := len(b) / 2
	o.blocks[bi].vals = b[:half:half]
	o.blocks = slices.Insert(o.blocks, bi+1, chunk[uint64]{vals: slices.Clone(b[half:])})
}

func (o *changeOrder) remove(k uint64) {
	if len(o.blocks) == 0 {
		return
	}
	bi := o.block(k)
	i, found := slices.BinarySearch(o.blocks[bi].vals, k)
	if !found {
		return
	}
	o.n--
	if b := slices.Delete(o.blocks[bi].writable(), i, i+1); len(b) > 0 {
		o.blocks[bi].vals = b
		return
	}
	o.blocks = slices.Delete(o.blocks, bi, bi+1)
}

// rank is the number of keys below k.
func (o *changeOrder) rank(k uint64) int {
	r := 0
	for _, c := range o.blocks {
		b := c.vals
		if b[len(b)-1] < k {
			r += len(b)
			continue
		}
		i, _ := slices.BinarySearch(b, k)
		return r + i
	}
	return r
}

// walk calls fn with the keys from rank from upwards, or, when down,
// from rank from downwards, until fn returns false.
func (o *changeOrder) walk(from int, down bool, fn func(uint64) bool) {
	if !down {
		for _, c := range o.blocks {
			b := c.vals
			if from >= len(b) {
				from -= len(b)
				continue
			}
			for _, k := range b[from:] {
				if !fn(k) {
					return
				}
			}
			from = 0
		}
		return
	}
	skip := o.n - 1 - from // keys above rank from
	for bi := len(o.blocks) - 1; bi >= 0; bi-- {
		b := o.blocks[bi].vals
		if skip >= len(b) {
			skip -= len(b)
			continue
		}
		for i := len(b) - 1 - skip; i >= 0; i-- {
			if !fn(b[i]) {
				return
			}
		}
		skip = 0
	}
}

// bytes is roughly the memory the facets hold.
func (f *facets) bytes() int64 {
	n := int64(f.timed.GetSizeInBytes()) + int64(len(f.byID.pages))*(1<<pageBits)*attrSize + int64(f.order.len())*8
	f.sets.each(func(_ facetKey, b *roaring.Bitmap) { n += int64(b.GetSizeInBytes()) })
	n += f.counts.bytes()
	for k := range f.hits {
		n += f.hits[k].bytes()
	}
	return n
}
