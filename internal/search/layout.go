package search

import (
	"cmp"
	"runtime"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// The index's large parts can live in a file the process maps (file.go)
// instead of the heap: the posting lists, the titles and the doc table.
// What is mapped is never written: a list, a title or a page of the doc
// table that a change touches is copied to the heap first, and the heap
// copy is what every later read sees.

// gramTable is the posting lists by gram key: the lists read from a
// file (keys ascending, each list a roaring bitmap in the portable
// format at blobs[offs[i]:offs[i+1]]) under the lists built or changed
// in this process.
type gramTable struct {
	keys  []uint64
	offs  []uint64
	blobs []byte
	// lists holds every list built or changed here; an empty one stands
	// for a list that no longer exists (a file's list has no other way to
	// be deleted).
	lists setMap[uint64]
}

// get returns the list of k, nil when there is none; it must not be
// changed (forWrite gives one that may).
func (g *gramTable) get(k uint64) *roaring.Bitmap {
	if b, ok := g.lists.lookup(k); ok {
		if b.IsEmpty() {
			return nil
		}
		return b
	}
	return g.mapped(k)
}

// mapped is the file's list of k, a view of the mapped bytes whose
// containers are copied before any change (roaring's copy on write).
func (g *gramTable) mapped(k uint64) *roaring.Bitmap {
	i, ok := slices.BinarySearch(g.keys, k)
	if !ok {
		return nil
	}
	b := roaring.New()
	if _, err := b.FromBuffer(g.blobs[g.offs[i]:g.offs[i+1]]); err != nil {
		// The file was checked whole when it was opened; a list that
		// does not read is a bug, not a bad file.
		panic("search: a posting list of the index file does not read: " + err.Error())
	}
	return b
}

// forWrite returns the list of k to change, created when missing.
func (g *gramTable) forWrite(k uint64) *roaring.Bitmap {
	if b, ok := g.lists.top[k]; ok {
		return b
	}
	return g.lists.forWrite(k, func() *roaring.Bitmap { return g.mapped(k) })
}

// remove takes id out of k's list.
func (g *gramTable) remove(k uint64, id uint32) {
	if g.get(k) == nil {
		return
	}
	g.forWrite(k).Remove(id)
	g.lists.dropEmpty(k, g.inFile(k))
}

func (g *gramTable) inFile(k uint64) bool {
	_, ok := slices.BinarySearch(g.keys, k)
	return ok
}

// each calls fn with every list, keys ascending, the file's and this
// process's merged; empty lists are left out. A list from the file
// that no change touched comes as its bytes (raw, b nil), so that it
// is copied as it is, not decoded.
func (g *gramTable) each(fn func(k uint64, b *roaring.Bitmap, raw []byte) error) error {
	own := g.lists.keys(cmp.Compare[uint64])
	i := 0
	fromFile := func(i int) error {
		return fn(g.keys[i], nil, g.blobs[g.offs[i]:g.offs[i+1]])
	}
	for _, k := range own {
		for ; i < len(g.keys) && g.keys[i] < k; i++ {
			if err := fromFile(i); err != nil {
				return err
			}
		}
		if i < len(g.keys) && g.keys[i] == k {
			i++
		}
		if b, _ := g.lists.lookup(k); !b.IsEmpty() {
			if err := fn(k, b, nil); err != nil {
				return err
			}
		}
	}
	for ; i < len(g.keys); i++ {
		if err := fromFile(i); err != nil {
			return err
		}
	}
	return nil
}

// bytes is roughly the size of the lists, mapped or not.
func (g *gramTable) bytes() (n int64) {
	n = int64(len(g.blobs))
	g.lists.each(func(_ uint64, b *roaring.Bitmap) { n += int64(b.GetSizeInBytes()) })
	return n
}

// count is the number of keys held, counted once when in both places
// only approximately (for a benchmark's report).
func (g *gramTable) count() int { return len(g.keys) + g.lists.size() }

// arena is the folded titles: the file's (mapped, never written) and
// then those added in this process. An offset below len(base) is in
// base, the others in tail.
type arena struct {
	base []byte
	tail []byte
}

func (a *arena) len() int { return len(a.base) + len(a.tail) }

// add appends s and returns its offset.
func (a *arena) add(s string) uint32 {
	off := a.len()
	a.tail = append(a.tail, s...)
	return uint32(off)
}

// at is the title sp points to; its bytes are never changed in place.
func (a *arena) at(sp span) string {
	if int(sp.off) < len(a.base) {
		return unsafeString(a.base[sp.off : sp.off+sp.n])
	}
	off := int(sp.off) - len(a.base)
	return unsafeString(a.tail[off : off+int(sp.n)])
}

// valueIDs is the value ids that follow sp's title, encoded (values.go).
func (a *arena) valueIDs(sp span) []byte {
	off, n := int(sp.off)+int(sp.n), int(sp.vals)
	if off < len(a.base) {
		return a.base[off : off+n]
	}
	off -= len(a.base)
	return a.tail[off : off+n]
}

// attach ties the mapping the index views to its life: the file is
// unmapped once the index is unreachable. Nothing built from the index
// outlives it holding mapped bytes: search results are ids copied out,
// and every set derived from a mapped list (intersections, the word
// cache, clones) is built in the heap.
func (ix *Index) attach(unmap func()) {
	runtime.AddCleanup(ix, func(unmap func()) { unmap() }, unmap)
}
