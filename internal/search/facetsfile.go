package search

import "encoding/binary"

// The facets section of an index file (file.go): n u64, then per record
// with attributes, ascending ids: id u32, changed u32, type u32, year
// u16 (the year + 1, 0 = none), play u8, 0 u8. Opening a file rebuilds
// the facet bitmaps and the change order from it (a pass over the
// records, no database read).

const facetRecordSize = 16

func (f *facets) writeTo(fw *fileWriter) error {
	n := uint64(f.timed.GetCardinality())
	fw.u64(n)
	buf := make([]byte, 0, facetRecordSize*1024)
	var err error
	f.timed.Iterate(func(id uint32) bool {
		a := f.byID.get(id)
		buf = binary.LittleEndian.AppendUint32(buf, id)
		buf = binary.LittleEndian.AppendUint32(buf, a.changed)
		buf = binary.LittleEndian.AppendUint32(buf, a.typ)
		buf = binary.LittleEndian.AppendUint16(buf, a.year)
		buf = append(buf, a.play, 0)
		if len(buf) == cap(buf) {
			_, err = fw.Write(buf)
			buf = buf[:0]
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	_, err = fw.Write(buf)
	return err
}

// read adds every record of the section (to an index read from the
// same file, whose records they must be) and settles the order.
func (f *facets) read(r *reader, present func(id uint32) bool) {
	n := r.count(facetRecordSize)
	b := r.take(facetRecordSize * n)
	var last uint32
	for i := range n {
		if r.err != nil {
			return
		}
		rec := b[facetRecordSize*i:]
		id := binary.LittleEndian.Uint32(rec)
		a := attrs{
			changed: binary.LittleEndian.Uint32(rec[4:]),
			typ:     binary.LittleEndian.Uint32(rec[8:]),
			year:    binary.LittleEndian.Uint16(rec[12:]),
			play:    rec[14],
			set:     true,
		}
		if (i > 0 && id <= last) || !present(id) || a.changed == 0 || a.year > 10000 {
			r.err = badFile("facet record %d out of order or of no record", id)
			return
		}
		last = id
		f.put(id, a)
	}
	f.settle()
}
