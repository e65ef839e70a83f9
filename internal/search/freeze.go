package search

import (
	"maps"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// A frozen view (freeze) is the index as it is at one moment, which no
// later change touches, so that its file is written without a lock
// held while changes go on. The view and the index share every part;
// the index copies a part before it changes it:
//
//   - a map of sets (the posting lists, the groups, the words, the
//     facets) is handed to the view whole, and the index keeps it below
//     a new map of its own (setMap), where a set is copied before its
//     first change;
//   - a page of the doc or attribute table and a block of the change
//     order are marked shared and copied before their first change;
//   - the titles' arena is only appended to (it is not compacted while
//     frozen), and the two sets of every id are copied at the freeze,
//     sharing their containers (shareClone).
//
// A freeze thus costs the top-level tables (a slice per page of 4,096
// ids, a pointer per 65,536 ids of the two sets), not the sets. Once the
// view is written, the index is either replaced (Live.adopt) or thawed:
// the layers of its maps become one again.

// setMap is the sets of one kind by key, in two layers while a frozen
// view shares them: below is the view's (never changed), top what
// changed since the freeze. An empty set on top stands for a key
// removed (kept when the key is also below, or in a file's table).
type setMap[K comparable] struct {
	top   map[K]*roaring.Bitmap
	below map[K]*roaring.Bitmap // nil when not frozen
}

func newSetMap[K comparable]() setMap[K] { return setMap[K]{top: map[K]*roaring.Bitmap{}} }

// lookup is k's set (perhaps empty) and whether either layer has k.
func (m *setMap[K]) lookup(k K) (*roaring.Bitmap, bool) {
	if b, ok := m.top[k]; ok {
		return b, true
	}
	b, ok := m.below[k]
	return b, ok
}

// get is k's set, nil when there is none or it is empty; it must not
// be changed (forWrite gives one that may).
func (m *setMap[K]) get(k K) *roaring.Bitmap {
	if b, _ := m.lookup(k); b != nil && !b.IsEmpty() {
		return b
	}
	return nil
}

// forWrite is k's set to change, on top: a copy of the one below, else
// base's (nil base, or a nil answer: a new set). A key new to the map
// is stored as given, so the caller passes one it owns.
func (m *setMap[K]) forWrite(k K, base func() *roaring.Bitmap) *roaring.Bitmap {
	if b, ok := m.top[k]; ok {
		return b
	}
	var b *roaring.Bitmap
	if old, ok := m.below[k]; ok {
		b = shareClone(old)
	} else if base != nil {
		b = base()
	}
	if b == nil {
		b = roaring.New()
	}
	m.top[k] = b
	return b
}

// shareClone is a copy of b that shares b's containers until it
// changes one (roaring's copy on write: the container is copied
// first), so that the first change to a large set after a freeze
// copies a container, not the set. Only b's copy-on-write marks are
// written, which the file writer reading the view never reads; the
// copy is left with copy on write off, like every other set, so that
// a clone of it (searches clone sets under the read lock) copies
// instead of marking it.
func shareClone(b *roaring.Bitmap) *roaring.Bitmap {
	b.SetCopyOnWrite(true)
	c := b.Clone()
	b.SetCopyOnWrite(false)
	c.SetCopyOnWrite(false)
	return c
}

// dropEmpty forgets k when its set on top is empty and no layer under
// it holds k (below, or elsewhere: kept).
func (m *setMap[K]) dropEmpty(k K, kept bool) {
	if b, ok := m.top[k]; ok && b.IsEmpty() && !kept {
		if _, below := m.below[k]; !below {
			delete(m.top, k)
		}
	}
}

// each calls fn with every key and its set, empty ones included.
func (m *setMap[K]) each(fn func(K, *roaring.Bitmap)) {
	for k, b := range m.top {
		fn(k, b)
	}
	for k, b := range m.below {
		if _, ok := m.top[k]; !ok {
			fn(k, b)
		}
	}
}

// keys is every key of both layers, sorted by cmp.
func (m *setMap[K]) keys(cmp func(a, b K) int) []K {
	ks := make([]K, 0, len(m.top)+len(m.below))
	m.each(func(k K, _ *roaring.Bitmap) { ks = append(ks, k) })
	slices.SortFunc(ks, cmp)
	return ks
}

// settle makes every set on top settled (index.go): a build's sets
// are all on top.
func (m *setMap[K]) settle() {
	for k, b := range m.top {
		m.top[k] = settled(b)
	}
}

// size is at least the number of keys (a key in both layers counts
// twice while frozen).
func (m *setMap[K]) size() int { return len(m.top) + len(m.below) }

// freeze hands the sets to a view: they move below, and the map starts
// an empty top.
func (m *setMap[K]) freeze() setMap[K] {
	view := setMap[K]{top: m.top}
	m.below, m.top = m.top, map[K]*roaring.Bitmap{}
	return view
}

// thaw folds the top into the layer below, which no view reads any
// more: an empty set is dropped unless kept says the key must stay.
func (m *setMap[K]) thaw(kept func(K) bool) {
	if m.below == nil {
		return
	}
	for k, b := range m.top {
		if b.IsEmpty() && (kept == nil || !kept(k)) {
			delete(m.below, k)
		} else {
			m.below[k] = b
		}
	}
	m.top, m.below = m.below, nil
}

// pageTable maps an id to a value in pages of 1<<pageBits values
// allocated on first use, so that memory follows the ids actually used
// (a few sparse high ids cost a page each, not a slot for every
// smaller id). The zero value is "none". A shared page (a view of the
// mapped file, or one a frozen view holds) is copied before its first
// change.
type pageTable[T comparable] struct {
	pages []chunk[T] // a page with nil vals is not allocated
}

func (t *pageTable[T]) at(id uint32) T {
	p := int(id >> pageBits)
	if p >= len(t.pages) || t.pages[p].vals == nil {
		var zero T
		return zero
	}
	return t.pages[p].vals[id&(1<<pageBits-1)]
}

func (t *pageTable[T]) set(id uint32, v T) {
	var zero T
	p := int(id >> pageBits)
	if p >= len(t.pages) {
		if v == zero {
			return
		}
		t.pages = append(t.pages, make([]chunk[T], p+1-len(t.pages))...)
	}
	page := &t.pages[p]
	if page.vals == nil {
		if v == zero {
			return
		}
		*page = chunk[T]{vals: make([]T, 1<<pageBits)}
	}
	page.writable()[id&(1<<pageBits-1)] = v
}

// mapPage sets page p to one read from a mapped file: never written in place.
func (t *pageTable[T]) mapPage(p int, page []T) {
	t.pages = append(t.pages, make([]chunk[T], p+1-len(t.pages))...)
	t.pages[p] = chunk[T]{vals: page, shared: true}
}

// freeze gives a view the pages as they are, every one shared from now on.
func (t *pageTable[T]) freeze() pageTable[T] {
	return pageTable[T]{pages: shareChunks(t.pages)}
}

// freeze returns a view of ix as it is now (see above); thaw, or
// dropping ix, ends it. A view taken before must no longer be read: a
// freeze of a frozen index thaws it first.
func (ix *Index) freeze() *Index {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.thawLocked()
	ix.facets.settle()
	ix.settleTitles()
	ix.frozen = true
	return &Index{
		grams:   gramTable{keys: ix.grams.keys, offs: ix.grams.offs, blobs: ix.grams.blobs, lists: ix.grams.lists.freeze()},
		all:     shareClone(ix.all),
		groups:  ix.groups.freeze(),
		names:   slices.Clip(ix.names),
		docs:    docTable{ix.docs.freeze()},
		arena:   arena{base: ix.arena.base, tail: slices.Clip(ix.arena.tail)},
		dead:    ix.dead,
		vocab:   &vocabulary{max: ix.vocab.max, words: ix.vocab.words.freeze()},
		words:   newWordCache(),
		facets:  ix.facets.freeze(),
		titles:  ix.titles.freeze(),
		values:  ix.values.freeze(),
		leftOut: maps.Clone(ix.leftOut),
	}
}

// thaw ends a freeze whose view is no longer read: every map is one
// layer again, and the arena may be compacted again. Pages and blocks
// stay marked shared (copied once more on their next change).
func (ix *Index) thaw() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.thawLocked()
}

func (ix *Index) thawLocked() {
	ix.grams.lists.thaw(ix.grams.inFile)
	ix.groups.thaw(func(string) bool { return true }) // ix.names holds every group
	ix.vocab.words.thaw(nil)
	ix.facets.sets.thaw(nil)
	ix.values.sets.thaw(nil)
	ix.frozen = false
}

func (f *facets) freeze() *facets {
	return &facets{byID: attrTable{f.byID.freeze()}, sets: f.sets.freeze(), timed: shareClone(f.timed), order: f.order.freeze(),
		counts: f.counts.freeze(), hits: [numHitKinds]hitOrder{f.hits[0].freeze(), f.hits[1].freeze(), f.hits[2].freeze(), f.hits[3].freeze()}}
}

// freeze gives a view the blocks as they are, every one shared from now on.
func (o *changeOrder) freeze() changeOrder {
	return changeOrder{blocks: shareChunks(o.blocks), n: o.n, pending: slices.Clone(o.pending), settled: o.settled}
}
