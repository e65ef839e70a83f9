package search

import (
	"strings"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/maypok86/otter/v2"
)

// span is where a record's folded title lies in the arena, and its
// group (index+1 into Index.names; 0 = no record); vals bytes of value
// ids follow the title in the arena (values.go).
type span struct {
	off   uint32
	n     uint32
	group uint16
	vals  uint16
}

// bytes is the arena bytes of the record: its title and value ids.
func (sp span) bytes() int { return int(sp.n) + int(sp.vals) }

// pageBits sizes the pages of a docTable: 4,096 spans (48 KiB) each.
const pageBits = 12

// docTable maps an id to its span. A page read from an index file views
// the mapped bytes and is copied to the heap before its first change.
type docTable struct{ pageTable[span] }

func (t *docTable) get(id uint32) (span, bool) {
	sp := t.at(id)
	return sp, sp.group != 0
}

// unsafeString views b as a string without copying; the arena bytes it
// views are never changed in place (a new title is appended, a compacted
// arena is a new slice).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// wordCacheBytes bounds the memory of the cached match sets of long
// terms for an index of records records: 8 bytes a record, and never
// less than 8 MiB. A set's size grows with the catalog (a term in half
// of a million titles is about 128 KiB, in half of ten million about
// 1.2 MiB), so a fixed bound would hold ten times fewer terms at ten
// times the size, and every search of a term it dropped verifies its
// candidates again.
func wordCacheBytes(records int) int64 { return max(8<<20, 8*int64(records)) }

// wordCache keeps the verified match sets of recent terms longer than a
// trigram, within a bound of bytes (otter's weighted cache). Changes to the
// index update the cached sets in place (note, forget) instead of
// dropping them, so a stream of writes does not turn every search back
// into a scan; they run under the index's write lock, so no search
// reads a set meanwhile. Searches, which hold only the read lock, fill
// it: otter is safe for concurrent use.
type wordCache struct {
	c *otter.Cache[string, *roaring.Bitmap]
}

func newWordCache() *wordCache {
	return &wordCache{c: otter.Must(&otter.Options[string, *roaring.Bitmap]{
		MaximumWeight: uint64(wordCacheBytes(0)),
		Weigher:       func(term string, set *roaring.Bitmap) uint32 { return uint32(wordSize(term, set)) },
	})}
}

// wordSize is what a cached set counts against the bound.
func wordSize(term string, set *roaring.Bitmap) int64 {
	return int64(set.GetSizeInBytes()) + int64(len(term)) + 64
}

func (c *wordCache) get(term string) *roaring.Bitmap {
	b, _ := c.c.GetIfPresent(term)
	return b
}

// put keeps set as term's, within maxBytes in all: a set larger than a
// quarter of that is not kept.
func (c *wordCache) put(term string, set *roaring.Bitmap, maxBytes int64) {
	if wordSize(term, set) > maxBytes/4 {
		return
	}
	if c.c.GetMaximum() != uint64(maxBytes) {
		c.c.SetMaximum(uint64(maxBytes))
	}
	c.c.SetIfAbsent(strings.Clone(term), set)
}

// note sets or clears id in every cached set after its title became
// fold; the index's write lock is held.
func (c *wordCache) note(id uint32, fold string) {
	for term, set := range c.c.All() {
		if strings.Contains(fold, term) {
			set.Add(id)
		} else {
			set.Remove(id)
		}
	}
}

// forget clears id from every cached set (the record is gone).
func (c *wordCache) forget(id uint32) {
	for set := range c.c.Values() {
		set.Remove(id)
	}
}
