package search

import (
	"encoding/binary"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// Lists filter and facet on exact values of a record's fields (contract
// 12: a movie's categories, actors, directors, studios, genres and
// countries, a clip's actor and studio), compared folded
// (catalog.FoldValue). Each distinct (field, folded value) gets a value
// id, kept for the life of the index with the first spelling seen (the
// one facets show), and a bitmap of the records that have it, so that a
// filter is one more set to intersect. A record's value ids are stored
// after its folded title in the arena (span.vals bytes of them, each
// an unsigned varint: the values seen first, the common ones, take one
// or two bytes), so that a change or a delete finds the sets to leave
// and a facet over a few records tallies their values directly.

// value is one (field, folded value) the index has seen.
type value struct {
	field    catalog.ValueField
	spelling string // the first spelling seen
	fold     string
}

type valueKey struct {
	field catalog.ValueField
	fold  string
}

// values is the index's dictionary of values and their sets. list only
// grows (a value id is list index + 1), and its entries never change,
// so a frozen view shares it clipped; ids is rebuilt from list when a
// file is read.
type values struct {
	ids     map[valueKey]uint32
	list    []value
	byField [catalog.NumValueFields + 1][]uint32 // value ids per field, in order of first sight
	sets    setMap[uint32]                       // value id -> records
	sorted  *valueOrder                          // facetcount.go; nil in a frozen view
}

func newValues() values {
	return values{ids: map[valueKey]uint32{}, sets: newSetMap[uint32](), sorted: &valueOrder{}}
}

// intern is the id of field's value v (as stored), added when new.
func (vs *values) intern(field catalog.ValueField, v string) uint32 {
	k := valueKey{field, catalog.FoldValue(v)}
	if id, ok := vs.ids[k]; ok {
		return id
	}
	vs.list = append(vs.list, value{field: field, spelling: v, fold: k.fold})
	id := uint32(len(vs.list))
	vs.ids[k] = id
	vs.byField[field] = append(vs.byField[field], id)
	return id
}

// lookup is the id of field's folded value fold, 0 when none.
func (vs *values) lookup(field catalog.ValueField, fold string) uint32 {
	return vs.ids[valueKey{field, fold}]
}

// set is the records with value id, nil when none.
func (vs *values) set(id uint32) *roaring.Bitmap { return vs.sets.get(id) }

// maxRecordValues is the most values of one record the index keeps
// (span.vals, 16 bits, counts their bytes, at most 5 each).
const maxRecordValues = (1<<16 - 1) / binary.MaxVarintLen32

// appendIDs appends to buf the distinct value ids of vals, interning
// new ones, and the bytes of the ids (the arena's form) to enc.
func (vs *values) appendIDs(ids []uint32, vals []catalog.FieldValue) []uint32 {
	start := len(ids)
	for _, fv := range vals {
		if fv.Field == 0 || fv.Field > catalog.NumValueFields || fv.Value == "" {
			continue
		}
		if id := vs.intern(fv.Field, fv.Value); !slices.Contains(ids[start:], id) && len(ids)-start < maxRecordValues {
			ids = append(ids, id)
		}
	}
	return ids
}

// add puts id in the sets of its value ids.
func (vs *values) add(id uint32, vals []uint32) {
	for _, v := range vals {
		vs.sets.forWrite(v, nil).Add(id)
	}
}

// remove takes id out of the sets of its value ids.
func (vs *values) remove(id uint32, vals []byte) {
	eachID(vals, func(v uint32) {
		if vs.sets.get(v) != nil {
			vs.sets.forWrite(v, nil).Remove(id)
			vs.sets.dropEmpty(v, false)
		}
	})
}

// encodeIDs appends ids to b as the arena keeps them.
func encodeIDs(b []byte, ids []uint32) []byte {
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id))
	}
	return b
}

// eachID calls fn with every value id encoded in b.
func eachID(b []byte, fn func(uint32)) {
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > MaxID {
			fn(0) // not a value id: a file's check refuses it
			return
		}
		fn(uint32(v))
		b = b[n:]
	}
}

func (vs *values) freeze() values {
	return values{list: slices.Clip(vs.list), sets: vs.sets.freeze()}
}

// bytes is roughly the memory the values hold.
func (vs *values) bytes() int64 {
	var n int64
	for _, v := range vs.list {
		n += int64(len(v.spelling)+len(v.fold)) + 64
	}
	vs.sets.each(func(_ uint32, b *roaring.Bitmap) { n += int64(b.GetSizeInBytes()) })
	return n
}

// writeTo writes the values section:
//
//	count u32, then per value: field u8, spelling length u32, spelling,
//	fold length u32, fold; padding; then the sets as named bitmaps, a
//	name being the value id u32
func (vs *values) writeTo(fw *fileWriter) error {
	fw.u32(uint32(len(vs.list)))
	for _, v := range vs.list {
		fw.Write([]byte{byte(v.field)})
		fw.u32(uint32(len(v.spelling)))
		fw.Write([]byte(v.spelling))
		fw.u32(uint32(len(v.fold)))
		fw.Write([]byte(v.fold))
	}
	fw.pad()
	var names []string
	vs.sets.each(func(id uint32, b *roaring.Bitmap) {
		if !b.IsEmpty() {
			names = append(names, string(binary.LittleEndian.AppendUint32(nil, id)))
		}
	})
	slices.Sort(names)
	return writeNamed(fw, names, func(name string) *roaring.Bitmap {
		return vs.sets.get(binary.LittleEndian.Uint32([]byte(name)))
	})
}

func (vs *values) read(r *reader) {
	n := int(r.u32())
	for i := 0; i < n && r.err == nil; i++ {
		f := r.take(1)
		spelling := string(r.take(int(r.u32())))
		fold := string(r.take(int(r.u32())))
		if r.err != nil {
			return
		}
		field := catalog.ValueField(f[0])
		if field == 0 || field > catalog.NumValueFields {
			r.err = badFile("value field %d", field)
			return
		}
		vs.list = append(vs.list, value{field: field, spelling: spelling, fold: fold})
		vs.ids[valueKey{field, fold}] = uint32(len(vs.list))
		vs.byField[field] = append(vs.byField[field], uint32(len(vs.list)))
	}
	r.align()
	readNamed(r, func(name string, b *roaring.Bitmap) {
		if len(name) != 4 {
			r.err = badFile("value name of %d bytes", len(name))
			return
		}
		id := binary.LittleEndian.Uint32([]byte(name))
		if id == 0 || int(id) > len(vs.list) {
			r.err = badFile("value %d of %d", id, len(vs.list))
			return
		}
		vs.sets.top[id] = b
	})
}
