package search

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
)

// Sorting by title (contract 12: folded title ascending, ties by id
// descending) reads the title order: every record's id, in that order,
// in sorted blocks like the change order's (facets.go), so that a page
// however deep is read by rank. The folded title is the first line of
// the record's search text (catalog.SearchText: the fold of the title,
// then the code and the pinyin on later lines; the fold holds no line
// break), read from the arena, so the order holds 4 bytes a record.
//
// What must stay true: the order holds exactly the ids of ix.all, each
// once, in titleCmp order, once settled. Keys are compared through the
// doc table, so an id is taken out (remove) before its title goes, and
// put in (add) after its title is recorded. Before the order is settled
// (a bulk Build, a file being read) nothing is added; settle sorts every
// id once.
type titleOrder struct {
	blocks  []chunk[uint32] // each sorted and non-empty; block i's ids before block i+1's
	n       int
	settled bool
}

// sortTitle is id's folded title.
func (ix *Index) sortTitle(id uint32) string {
	sp, _ := ix.docs.get(id)
	t, _, _ := strings.Cut(ix.title(sp), "\n")
	return t
}

// titleCmp is the title order: folded title ascending, then id
// descending.
func (ix *Index) titleCmp(a, b uint32) int {
	return cmp.Or(strings.Compare(ix.sortTitle(a), ix.sortTitle(b)), cmp.Compare(b, a))
}

// settleTitles sorts every id into the title order, once.
func (ix *Index) settleTitles() {
	o := &ix.titles
	if o.settled {
		return
	}
	o.settled = true
	ids := ix.all.ToArray()
	slices.SortFunc(ids, ix.titleCmp)
	o.n = len(ids)
	o.blocks = nil
	for len(ids) > 0 {
		n := min(len(ids), max(blockMax/2, 1))
		o.blocks = append(o.blocks, chunk[uint32]{vals: slices.Clone(ids[:n])})
		ids = ids[n:]
	}
}

// block is the block id belongs in: the first whose last id is at or
// after it, else the last.
func (ix *Index) titleBlock(id uint32) int {
	o := &ix.titles
	i := sort.Search(len(o.blocks), func(i int) bool { b := o.blocks[i].vals; return ix.titleCmp(b[len(b)-1], id) >= 0 })
	return min(i, len(o.blocks)-1)
}

// addTitle puts id, whose title is recorded, in the order.
func (ix *Index) addTitle(id uint32) {
	o := &ix.titles
	if !o.settled {
		return
	}
	o.n++
	if len(o.blocks) == 0 {
		o.blocks = []chunk[uint32]{{vals: []uint32{id}}}
		return
	}
	bi := ix.titleBlock(id)
	b := o.blocks[bi].writable()
	i, _ := slices.BinarySearchFunc(b, id, ix.titleCmp)
	b = slices.Insert(b, i, id)
	if len(b) <= blockMax {
		o.blocks[bi].vals = b
		return
	}
	half := len(b) / 2
	o.blocks[bi].vals = b[:half:half]
	o.blocks = slices.Insert(o.blocks, bi+1, chunk[uint32]{vals: slices.Clone(b[half:])})
}

// removeTitle takes id, whose title is still recorded, out of the order.
func (ix *Index) removeTitle(id uint32) {
	o := &ix.titles
	if !o.settled || len(o.blocks) == 0 {
		return
	}
	bi := ix.titleBlock(id)
	i, found := slices.BinarySearchFunc(o.blocks[bi].vals, id, ix.titleCmp)
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

// freeze gives a view the blocks as they are, every one shared from now on.
func (o *titleOrder) freeze() titleOrder {
	return titleOrder{blocks: shareChunks(o.blocks), n: o.n, settled: o.settled}
}

// walk calls fn with the ids from rank from on, until fn returns false.
func (o *titleOrder) walk(from int, fn func(uint32) bool) {
	for _, c := range o.blocks {
		b := c.vals
		if from >= len(b) {
			from -= len(b)
			continue
		}
		for _, id := range b[from:] {
			if !fn(id) {
				return
			}
		}
		from = 0
	}
}

// titlePage is the page of m (nil: every record) in title order: the
// order itself by rank; a small m's ids sorted; else a walk of the
// order testing a bit array of m, up to the page's end.
func (ix *Index) titlePage(m matchSet, q Query) Result {
	o := &ix.titles
	res := Result{Total: int64(o.n), IDs: []int64{}}
	if m != nil {
		res.Total = m.len()
	}
	if q.Offset >= res.Total || q.Limit <= 0 {
		return res
	}
	end := min(q.Offset+q.Limit, res.Total)
	if m == nil {
		o.walk(int(q.Offset), func(id uint32) bool {
			res.IDs = append(res.IDs, int64(id))
			return int64(len(res.IDs)) < end-q.Offset
		})
		return res
	}
	if m.len()*narrowShare <= int64(o.n) {
		ids := make([]uint32, 0, m.len())
		m.each(func(id uint32) { ids = append(ids, id) })
		slices.SortFunc(ids, ix.titleCmp)
		for _, id := range ids[q.Offset:end] {
			res.IDs = append(res.IDs, int64(id))
		}
		return res
	}
	bits := getBits(int(ix.all.Maximum()/64) + 1)
	defer putBits(bits)
	m.dense(bits)
	var seen int64
	o.walk(0, func(id uint32) bool {
		if bits[id>>6]&(1<<(id&63)) == 0 {
			return true
		}
		if seen >= q.Offset {
			res.IDs = append(res.IDs, int64(id))
		}
		seen++
		return seen < end
	})
	return res
}

// writeTo writes the order as an index file section: n u64, then the
// ids in order, [n]u32.
func (o *titleOrder) writeTo(fw *fileWriter) error {
	fw.u64(uint64(o.n))
	var buf []byte
	for _, c := range o.blocks {
		buf = buf[:0]
		for _, id := range c.vals {
			buf = binary.LittleEndian.AppendUint32(buf, id)
		}
		if _, err := fw.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// readTitles reads a titles section: every id present, once, each
// after the one before in titleCmp order (strictly ordered, all present
// and as many as ix.all: exactly ix.all, in order), so that an open
// costs a compare a record instead of a sort.
func (ix *Index) readTitles(r *reader) {
	n := int(r.u64())
	if r.err != nil {
		return
	}
	if uint64(n) != ix.all.GetCardinality() {
		r.err = badFile("%d ids in the title order for %d records", n, ix.all.GetCardinality())
		return
	}
	b := r.take(4 * n)
	if r.err != nil {
		return
	}
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = binary.LittleEndian.Uint32(b[4*i:])
		if !ix.all.Contains(ids[i]) || i > 0 && ix.titleCmp(ids[i-1], ids[i]) >= 0 {
			r.err = badFile("title order out of order or of no record")
			return
		}
	}
	o := &ix.titles
	o.settled, o.n, o.blocks = true, n, nil
	for len(ids) > 0 {
		k := min(len(ids), max(blockMax/2, 1))
		o.blocks = append(o.blocks, chunk[uint32]{vals: ids[:k:k]})
		ids = ids[k:]
	}
}
