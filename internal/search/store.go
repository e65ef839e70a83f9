package search

import (
	"container/list"
	"strings"
	"sync"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
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
// trigram, least recently used first out. Changes to the index update
// the cached sets in place (note, forget) instead of dropping them, so
// a stream of writes does not turn every search back into a scan. Its
// own lock lets searches, which hold only the index's read lock, fill it.
type wordCache struct {
	size  int64
	order *list.List // of *wordEntry, front = most recent
	byKey map[string]*list.Element
	mu    sync.Mutex
}

type wordEntry struct {
	term string
	set  *roaring.Bitmap
	size int64
}

func newWordCache() *wordCache {
	return &wordCache{order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *wordCache) get(term string) *roaring.Bitmap {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[term]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*wordEntry).set
	}
	return nil
}

// put keeps set as term's, within maxBytes in all: a set larger than a
// quarter of that is not kept.
func (c *wordCache) put(term string, set *roaring.Bitmap, maxBytes int64) {
	size := int64(set.GetSizeInBytes()) + int64(len(term)) + 64
	if size > maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[term]; ok {
		return
	}
	c.byKey[term] = c.order.PushFront(&wordEntry{term: strings.Clone(term), set: set, size: size})
	c.size += size
	for c.size > maxBytes {
		e := c.order.Back()
		w := e.Value.(*wordEntry)
		c.order.Remove(e)
		delete(c.byKey, w.term)
		c.size -= w.size
	}
}

// note sets or clears id in every cached set after its title became
// fold; the index's write lock is held, so no search reads the sets.
func (c *wordCache) note(id uint32, fold string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; e = e.Next() {
		w := e.Value.(*wordEntry)
		if strings.Contains(fold, w.term) {
			w.set.Add(id)
		} else {
			w.set.Remove(id)
		}
	}
}

// forget clears id from every cached set (the record is gone).
func (c *wordCache) forget(id uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; e = e.Next() {
		e.Value.(*wordEntry).set.Remove(id)
	}
}
