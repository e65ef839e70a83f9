package search

import (
	"encoding/binary"
	"maps"
	"slices"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// The facets section of an index file (file.go), laid out so that
// opening a file copies arrays instead of adding records one by one:
//
//	attrs  n u64, page numbers [n]u32, padding, n pages of 1<<pageBits
//	       records (changed u32, type u32, year u16, play u8, set u8, score u8, 0 [3]u8)
//	timed  one bitmap (file.go's bitmap)
//	sets   named bitmaps (writeNamed), a name being kind u8 and value u32
//	order  n u64, the change order's keys ascending [n]u64
//	counts n u64, the play counts of the movies that have any, id
//	       ascending: n records (id u32, total u32, day u32, week u32,
//	       month u32, day of the last hit u32); the hit orders are made
//	       from them when the file is read
//
// The bitmaps, the attribute pages and the order's blocks are views of
// the mapped file, each copied to the heap before its first change (as
// every mapped list), so that opening a large catalog's file costs
// neither the time nor the memory of a copy.

const attrSize = 16

func (f *facets) writeTo(fw *fileWriter) error {
	err := writePages(fw, &f.byID.pageTable, attrSize, func(buf []byte, a attrs) []byte {
		buf = binary.LittleEndian.AppendUint32(buf, a.changed)
		buf = binary.LittleEndian.AppendUint32(buf, a.typ)
		buf = binary.LittleEndian.AppendUint16(buf, a.year)
		return append(buf, a.play, boolByte(a.set), a.score, 0, 0, 0)
	})
	if err != nil {
		return err
	}
	fw.pad()
	if err := fw.bitmap(f.timed); err != nil {
		return err
	}
	var names []string
	f.sets.each(func(k facetKey, b *roaring.Bitmap) {
		if !b.IsEmpty() {
			names = append(names, k.name())
		}
	})
	slices.Sort(names)
	if err := writeNamed(fw, names, func(name string) *roaring.Bitmap { return f.sets.get(keyOfName(name)) }); err != nil {
		return err
	}
	fw.u64(uint64(f.order.len()))
	buf := make([]byte, 0, attrSize<<pageBits)
	f.order.walk(0, false, func(k uint64) bool {
		if buf = binary.LittleEndian.AppendUint64(buf, k); len(buf) >= cap(buf)-8 {
			fw.Write(buf)
			buf = buf[:0]
		}
		return true
	})
	fw.Write(buf)
	ids := slices.Sorted(maps.Keys(f.counts.m))
	fw.u64(uint64(len(ids)))
	buf = buf[:0]
	for _, id := range ids {
		r := f.counts.m[id]
		buf = binary.LittleEndian.AppendUint32(buf, id)
		for _, n := range r.n {
			buf = binary.LittleEndian.AppendUint32(buf, n)
		}
		if buf = binary.LittleEndian.AppendUint32(buf, r.on); len(buf) >= cap(buf)-hitRecSize {
			fw.Write(buf)
			buf = buf[:0]
		}
	}
	_, err = fw.Write(buf)
	return err
}

// hitRecSize is the bytes of one movie's counts in the file.
const hitRecSize = 4 + 4*(int(numHitKinds)+1)

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// name is k as a bitmap's name in the file.
func (k facetKey) name() string {
	return string(binary.LittleEndian.AppendUint32([]byte{byte(k.kind)}, k.value))
}

func keyOfName(name string) facetKey {
	return facetKey{kind: facetKind(name[0]), value: binary.LittleEndian.Uint32([]byte(name[1:]))}
}

// read reads the section into f, empty, of an index read from the same
// file; present says which ids the index holds.
func (f *facets) read(r *reader, present func(id uint32) bool) {
	f.readAttrs(r)
	f.timed = r.bitmap()
	readNamed(r, func(name string, b *roaring.Bitmap) {
		if len(name) != 5 {
			r.err = badFile("facet name of %d bytes", len(name))
			return
		}
		f.sets.top[keyOfName(name)] = b
	})
	n := r.count(8)
	keys := u64sAt(r.take(8 * n))
	if r.err != nil {
		return
	}
	if uint64(n) != f.timed.GetCardinality() {
		r.err = badFile("%d keys in the change order for %d records", n, f.timed.GetCardinality())
		return
	}
	for i, k := range keys {
		if !present(uint32(k)) || (i > 0 && k <= keys[i-1]) {
			r.err = badFile("change order out of order or of no record")
			return
		}
	}
	o := &f.order
	for i := 0; i < n; i += blockMax / 2 {
		end := min(i+blockMax/2, n)
		o.blocks = append(o.blocks, chunk[uint64]{vals: keys[i:end:end], shared: true})
	}
	o.n, o.settled = n, true
	f.readCounts(r)
}

// readCounts reads the play counts, each of a movie the file holds,
// and makes the hit orders from them.
func (f *facets) readCounts(r *reader) {
	n := r.count(hitRecSize)
	b := r.take(hitRecSize * n)
	if r.err != nil {
		return
	}
	f.counts = hitCounts{m: make(map[uint32]hitRec, n)}
	last := -1
	for i := range n {
		rec := b[i*hitRecSize:]
		id := binary.LittleEndian.Uint32(rec)
		var h hitRec
		for k := range h.n {
			h.n[k] = binary.LittleEndian.Uint32(rec[4+4*k:])
		}
		h.on = binary.LittleEndian.Uint32(rec[4+4*numHitKinds:])
		if int(id) <= last || !f.byID.get(id).set || h == (hitRec{}) {
			r.err = badFile("play counts out of order, of no movie or empty")
			return
		}
		last = int(id)
		f.counts.m[id] = h
	}
	f.rebuildHits()
}

// readAttrs maps the attribute pages: the file's record layout is
// attrs' own (checked below at compile time), little-endian, with set
// written as 0 or 1.
func (f *facets) readAttrs(r *reader) {
	n := r.count(4)
	nums := r.take(4 * n)
	r.align()
	t := &f.byID
	for i := range n {
		if r.err != nil {
			return
		}
		p := int(binary.LittleEndian.Uint32(nums[4*i:]))
		if p >= 1<<(32-pageBits) || p < len(t.pages) {
			r.err = badFile("facet pages out of order")
			return
		}
		page := r.take(attrSize << pageBits)
		if page == nil {
			return
		}
		t.mapPage(p, unsafe.Slice((*attrs)(unsafe.Pointer(&page[0])), 1<<pageBits))
	}
	r.align()
}

// attrs is attrSize bytes in memory, as in the file: mapping a page
// depends on it.
var (
	_ [attrSize - unsafe.Sizeof(attrs{})]byte
	_ [unsafe.Sizeof(attrs{}) - attrSize]byte
)
