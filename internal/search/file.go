package search

import (
	"bufio"
	"catalog/internal/durable"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
)

// An index file holds one Index whole, with the search-log version it
// is current to, the kind of record and the identity of the database it
// was built from. Layout (little-endian, every section 8-byte aligned):
//
//	header   "CATIDX1\n", format u32, kind u32, version i64, identity length u32, fold u32, identity, padding
//	sections one after the other (see writeSections)
//	directory section count u32, then per section: offset u64, length u64, name length u32, name
//	trailer  directory offset u64, CRC-32C of every byte before it u32, 0 u32, "CATIDXOK"
//
// A file is written beside its final name and renamed over it once
// synced, so a reader finds the old file or the new one, whole. The
// checksum and the length are checked before anything else is read, so
// a file cut short or changed on disk is refused, never half used. A
// new section is one more name in the directory; a change to a
// section's layout takes a new format number (an older file is then
// rebuilt, not misread).
const (
	fileMagic    = "CATIDX1\n"
	trailerMagic = "CATIDXOK"
	fileFormat   = 7
	headerSize   = 32
	trailerSize  = 24
)

// FileHeader is what an index file says about itself.
type FileHeader struct {
	Kind     int
	Version  int64  // every change up to it is in the file
	Identity string // the database's (catalog.SearchLog.Identity)
	// Fold is the fold.Version of the search text the file holds: a file
	// of another fold is rebuilt, never matched against this one's
	// terms. Files written before it was recorded hold 0 there, which
	// stands for fold 1.
	Fold int
}

// errBadFile wraps every reason a file is refused.
var errBadFile = errors.New("index file refused")

func badFile(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadFile, fmt.Sprintf(format, args...))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileWriter counts and checksums what it writes.
type fileWriter struct {
	w   *bufio.Writer
	crc hash.Hash32
	n   int64
	dir []sectionEntry

	after func(section string) // see writeFile
}

type sectionEntry struct {
	name     string
	off, len int64
}

func (fw *fileWriter) Write(p []byte) (int, error) {
	n, err := fw.w.Write(p)
	fw.crc.Write(p[:n])
	fw.n += int64(n)
	return n, err
}

func (fw *fileWriter) u32(v uint32) { fw.Write(binary.LittleEndian.AppendUint32(nil, v)) }
func (fw *fileWriter) u64(v uint64) { fw.Write(binary.LittleEndian.AppendUint64(nil, v)) }

func (fw *fileWriter) pad() {
	var zero [8]byte
	if r := fw.n % 8; r != 0 {
		fw.Write(zero[:8-r])
	}
}

// section writes one named section with fn.
func (fw *fileWriter) section(name string, fn func() error) error {
	fw.pad()
	off := fw.n
	if err := fn(); err != nil {
		return err
	}
	fw.dir = append(fw.dir, sectionEntry{name, off, fw.n - off})
	if fw.after != nil {
		fw.after(name)
	}
	return nil
}

// bitmap writes b with its length, padded.
func (fw *fileWriter) bitmap(b *roaring.Bitmap) error {
	fw.u64(b.GetSerializedSizeInBytes())
	if _, err := b.WriteTo(fw); err != nil {
		return err
	}
	fw.pad()
	return nil
}

// WriteFile writes ix to path atomically (a temporary file in the same
// folder, synced, renamed over path, the folder synced), marked with h.
// It holds ix's read lock while it writes: changes wait, searches do not
// (a Live writes a frozen view instead, which no change waits for).
func (ix *Index) WriteFile(path string, h FileHeader) error { return ix.writeFile(path, h, nil) }

// writeFile is WriteFile, calling after (when not nil) after each
// section with its name.
func (ix *Index) writeFile(path string, h FileHeader, after func(string)) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	// The temporary file goes whenever the new file is not in place: on
	// an error, and on a panic (which the caller may recover from).
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	fw := &fileWriter{w: bufio.NewWriterSize(tmp, 1<<20), crc: crc32.New(castagnoli), after: after}
	if err := ix.lockedWriteTo(fw, h); err != nil {
		return err
	}
	if err := fw.w.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	return durable.SyncDir(filepath.Dir(path))
}

// lockedWriteTo is writeTo under ix's read lock, released however
// writeTo ends.
func (ix *Index) lockedWriteTo(fw *fileWriter, h FileHeader) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.writeTo(fw, h)
}

// writeTo writes the whole file; the read lock is held.
func (ix *Index) writeTo(fw *fileWriter, h FileHeader) error {
	fw.Write([]byte(fileMagic))
	fw.u32(fileFormat)
	fault("save")
	fw.u32(uint32(h.Kind))
	fw.u64(uint64(h.Version))
	fw.u32(uint32(len(h.Identity)))
	fw.u32(uint32(h.Fold))
	fw.Write([]byte(h.Identity))
	if err := ix.writeSections(fw); err != nil {
		return err
	}
	fw.pad()
	dirOff := fw.n
	fw.u32(uint32(len(fw.dir)))
	for _, e := range fw.dir {
		fw.u64(uint64(e.off))
		fw.u64(uint64(e.len))
		fw.u32(uint32(len(e.name)))
		fw.Write([]byte(e.name))
	}
	fw.pad()
	fw.u64(uint64(dirOff))
	fw.u32(fw.crc.Sum32())
	fw.u32(0)
	_, err := fw.Write([]byte(trailerMagic))
	return err
}

// writeSections writes the index's parts:
//
//	grams  n u64, keys [n]u64 ascending, offsets [n+1]u64 (from the first list), lists (portable roaring, each padded to 8)
//	all    one bitmap (length u64, portable roaring, padding)
//	groups named bitmaps, in group order (see writeNamed)
//	vocab  named bitmaps
//	docs   n u64, page numbers [n]u32, padding, n pages of 1<<pageBits spans (off u32, n u32, group u16, vals u16: bytes of value ids)
//	arena  the titles' bytes, each followed by its record's value ids
//	values the values' dictionary and sets (values.go)
//	state  dead arena bytes u64
//	facets the movies' attributes (facetsfile.go)
//	leftout n u64, the ids left out of the index ascending [n]i64
func (ix *Index) writeSections(fw *fileWriter) error {
	steps := []struct {
		name string
		fn   func() error
	}{
		{"grams", func() error { return ix.grams.writeTo(fw) }},
		{"all", func() error { return fw.bitmap(ix.all) }},
		{"groups", func() error {
			return writeNamed(fw, ix.names, func(name string) *roaring.Bitmap { b, _ := ix.groups.lookup(name); return b })
		}},
		{"vocab", func() error {
			var words []string
			ix.vocab.words.each(func(w string, b *roaring.Bitmap) {
				if !b.IsEmpty() {
					words = append(words, w)
				}
			})
			slices.Sort(words)
			return writeNamed(fw, words, ix.vocab.words.get)
		}},
		{"docs", func() error { return ix.docs.writeTo(fw) }},
		{"arena", func() error {
			fw.Write(ix.arena.base)
			_, err := fw.Write(ix.arena.tail)
			return err
		}},
		{"state", func() error { fw.u64(uint64(ix.dead)); return nil }},
		{"facets", func() error { return ix.facets.writeTo(fw) }},
		{"values", func() error { return ix.values.writeTo(fw) }},
		{"titles", func() error { return ix.titles.writeTo(fw) }},
		{"leftout", func() error {
			ids := slices.Sorted(maps.Keys(ix.leftOut))
			fw.u64(uint64(len(ids)))
			for _, id := range ids {
				fw.u64(uint64(id))
			}
			return nil
		}},
	}
	for _, s := range steps {
		if err := fw.section(s.name, s.fn); err != nil {
			return fmt.Errorf("write index file section %s: %w", s.name, err)
		}
	}
	return nil
}

// writeNamed writes count u32, then per name: length u32, the name,
// padding, and its bitmap.
func writeNamed(fw *fileWriter, names []string, get func(string) *roaring.Bitmap) error {
	fw.u32(uint32(len(names)))
	for _, name := range names {
		fw.u32(uint32(len(name)))
		fw.Write([]byte(name))
		fw.pad()
		if err := fw.bitmap(get(name)); err != nil {
			return err
		}
	}
	return nil
}

func (g *gramTable) writeTo(fw *fileWriter) error {
	var keys []uint64
	offs := []uint64{0}
	size := func(n uint64) uint64 { return (n + 7) &^ 7 }
	g.each(func(k uint64, b *roaring.Bitmap, raw []byte) error {
		keys = append(keys, k)
		n := uint64(len(raw))
		if b != nil {
			n = b.GetSerializedSizeInBytes()
		}
		offs = append(offs, offs[len(offs)-1]+size(n))
		return nil
	})
	fw.u64(uint64(len(keys)))
	for _, k := range keys {
		fw.u64(k)
	}
	for _, o := range offs {
		fw.u64(o)
	}
	return g.each(func(_ uint64, b *roaring.Bitmap, raw []byte) error {
		if b != nil {
			if _, err := b.WriteTo(fw); err != nil {
				return err
			}
		} else {
			fw.Write(raw)
		}
		fw.pad()
		return nil
	})
}

func (t *docTable) writeTo(fw *fileWriter) error {
	return writePages(fw, &t.pageTable, 12, func(buf []byte, sp span) []byte {
		buf = binary.LittleEndian.AppendUint32(buf, sp.off)
		buf = binary.LittleEndian.AppendUint32(buf, sp.n)
		buf = binary.LittleEndian.AppendUint16(buf, sp.group)
		return binary.LittleEndian.AppendUint16(buf, sp.vals)
	})
}

// writePages writes the pages of t that exist: their count and numbers,
// padding, then each page's entries, size bytes each, as put encodes
// them.
func writePages[T comparable](fw *fileWriter, t *pageTable[T], size int, put func([]byte, T) []byte) error {
	var present []uint32
	for p, page := range t.pages {
		if page.vals != nil {
			present = append(present, uint32(p))
		}
	}
	fw.u64(uint64(len(present)))
	for _, p := range present {
		fw.u32(p)
	}
	fw.pad()
	buf := make([]byte, 0, size<<pageBits)
	for _, p := range present {
		buf = buf[:0]
		for _, v := range t.pages[p].vals {
			buf = put(buf, v)
		}
		if _, err := fw.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// ReadFileHeader checks the file at path whole (length, checksum,
// format) and returns what it says about itself, without mapping it.
func ReadFileHeader(path string) (FileHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileHeader{}, err
	}
	defer f.Close()
	h, _, err := checkFile(f)
	return h, err
}

// checkFile reads f through once to check its trailer and checksum
// (reading, not mapping, leaves the pages out of the process's
// resident memory), and returns its header and directory offset.
func checkFile(f *os.File) (FileHeader, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return FileHeader{}, 0, err
	}
	size := st.Size()
	if size < headerSize+trailerSize {
		return FileHeader{}, 0, badFile("%d bytes, shorter than a header and a trailer", size)
	}
	var tr [trailerSize]byte
	if _, err := f.ReadAt(tr[:], size-trailerSize); err != nil {
		return FileHeader{}, 0, err
	}
	if string(tr[16:]) != trailerMagic || binary.LittleEndian.Uint32(tr[12:]) != 0 {
		return FileHeader{}, 0, badFile("no trailer: the file was cut short or is not an index file")
	}
	dirOff := int64(binary.LittleEndian.Uint64(tr[0:]))
	crc := crc32.New(castagnoli)
	// Reads of 1 MiB, so that checking a file of a gigabyte is the
	// checksum's work rather than that of the read system calls.
	if _, err := io.CopyBuffer(crc, io.NewSectionReader(f, 0, size-trailerSize+8), make([]byte, 1<<20)); err != nil {
		return FileHeader{}, 0, err
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(tr[8:]) {
		return FileHeader{}, 0, badFile("checksum mismatch")
	}
	var hd [headerSize]byte
	if _, err := f.ReadAt(hd[:], 0); err != nil {
		return FileHeader{}, 0, err
	}
	if string(hd[:8]) != fileMagic {
		return FileHeader{}, 0, badFile("not an index file")
	}
	if v := binary.LittleEndian.Uint32(hd[8:]); v != fileFormat {
		return FileHeader{}, 0, badFile("format %d, this program reads %d", v, fileFormat)
	}
	idLen := int64(binary.LittleEndian.Uint32(hd[24:]))
	if dirOff < headerSize+idLen || dirOff > size-trailerSize {
		return FileHeader{}, 0, badFile("directory out of bounds")
	}
	id := make([]byte, idLen)
	if _, err := f.ReadAt(id, headerSize); err != nil {
		return FileHeader{}, 0, err
	}
	return FileHeader{
		Kind:     int(binary.LittleEndian.Uint32(hd[12:])),
		Version:  int64(binary.LittleEndian.Uint64(hd[16:])),
		Identity: string(id),
		Fold:     int(binary.LittleEndian.Uint32(hd[28:])),
	}, dirOff, nil
}

// littleEndian reports whether the machine's byte order is the file's,
// which mapping the doc table and the gram table in place needs.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// OpenFile checks the file at path whole and returns its index, the
// large parts mapped from the file rather than read into the heap
// (they are copied to the heap only as changes touch them), and its
// header. The caller compares the header with the database before
// using the index. A file that does not check is an error wrapping
// errBadFile (see IsBadFile); the file is never half read.
func OpenFile(path string) (*Index, FileHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, FileHeader{}, err
	}
	defer f.Close()
	h, dirOff, err := checkFile(f)
	if err != nil {
		return nil, FileHeader{}, err
	}
	if !littleEndian {
		return nil, FileHeader{}, badFile("this machine is big-endian; index files are little-endian")
	}
	data, unmap, err := mapFile(f)
	if err != nil {
		return nil, FileHeader{}, err
	}
	ix, err := decode(data, dirOff)
	if err != nil {
		unmap()
		return nil, FileHeader{}, err
	}
	ix.attach(unmap)
	return ix, h, nil
}

// IsBadFile reports whether err says an index file was refused for its
// content (cut short, changed, another format), rather than not read.
func IsBadFile(err error) bool { return errors.Is(err, errBadFile) }

// reader reads little-endian values from a section, failing (once,
// sticky) past its end.
type reader struct {
	b   []byte
	pos int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.pos {
		if r.err == nil {
			r.err = badFile("a section is shorter than its contents")
		}
		return nil
	}
	out := r.b[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return out
}

func (r *reader) align() { r.take((8 - r.pos%8) % 8) }

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// count reads a u64 count of items of size bytes each, bounded by what
// is left of the section.
func (r *reader) count(size int) int {
	n := r.u64()
	if n > uint64(len(r.b)-r.pos)/uint64(size) {
		r.err = cmpErr(r.err, badFile("a count runs past its section"))
		return 0
	}
	return int(n)
}

func cmpErr(old, err error) error {
	if old != nil {
		return old
	}
	return err
}

// bitmap reads one length-prefixed bitmap, a view of the mapped bytes.
func (r *reader) bitmap() *roaring.Bitmap {
	n := r.count(1)
	blob := r.take(n)
	r.align()
	b := roaring.New()
	if r.err != nil {
		return b
	}
	if _, err := b.FromBuffer(blob); err != nil {
		r.err = badFile("a bitmap does not read: %v", err)
	}
	return b
}

// views of mapped bytes as arrays; the section offsets are 8-aligned
// and the mapping is page-aligned.
func u64s(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// u64sAt is u64s when b is 8-byte aligned (a view of the mapped file),
// else a copy: a section's array need not be aligned.
func u64sAt(b []byte) []uint64 {
	if len(b) == 0 || uintptr(unsafe.Pointer(&b[0]))%8 == 0 {
		return u64s(b)
	}
	v := make([]uint64, len(b)/8)
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return v
}

func spans(b []byte) []span {
	return unsafe.Slice((*span)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(span{})))
}

// decode builds the index over data, the mapped file.
func decode(data []byte, dirOff int64) (*Index, error) {
	fault("load")
	r := &reader{b: data[:len(data)-trailerSize], pos: int(dirOff)}
	sections := map[string]*reader{}
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		off, length := r.u64(), r.u64()
		name := string(r.take(int(r.u32())))
		if r.err == nil && (off%8 != 0 || off > uint64(dirOff) || length > uint64(dirOff)-off) {
			r.err = badFile("section %q out of bounds", name)
		}
		if r.err == nil {
			sections[name] = &reader{b: data[off : off+length : off+length]}
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	names := []string{"grams", "all", "groups", "vocab", "docs", "arena", "state", "facets", "values"}
	for _, name := range names {
		if sections[name] == nil {
			return nil, badFile("no %s section", name)
		}
	}
	ix := New()
	steps := []func(*reader){
		ix.grams.read,
		func(r *reader) { ix.all = r.bitmap() },
		ix.readGroups,
		ix.vocab.read,
		ix.docs.read,
		func(r *reader) { ix.arena.base = r.b },
		func(r *reader) { ix.dead = int(r.u64()) },
		func(r *reader) { ix.facets.read(r, func(id uint32) bool { _, ok := ix.docs.get(id); return ok }) },
		ix.values.read,
	}
	for i, name := range names {
		s := sections[name]
		steps[i](s)
		if s.err != nil {
			return nil, fmt.Errorf("section %s: %w", name, s.err)
		}
	}
	// A file written before records were left out has no such section,
	// and left none out: a catalog with such a record had no index.
	if s := sections["leftout"]; s != nil {
		for n := s.count(8); n > 0 && s.err == nil; n-- {
			ix.leftOut[int64(s.u64())] = struct{}{}
		}
		if s.err != nil {
			return nil, fmt.Errorf("section leftout: %w", s.err)
		}
	}
	if err := ix.checkSpans(); err != nil {
		return nil, err
	}
	// A file written before the title order has no such section: its
	// order is sorted here, once.
	if s := sections["titles"]; s != nil {
		ix.readTitles(s)
		if s.err != nil {
			return nil, fmt.Errorf("section titles: %w", s.err)
		}
	}
	ix.settleTitles()
	return ix, nil
}

// readNamed reads a writeNamed section.
func readNamed(r *reader, fn func(name string, b *roaring.Bitmap)) {
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		name := strings.Clone(string(r.take(int(r.u32()))))
		r.align()
		b := r.bitmap()
		if r.err == nil {
			fn(name, b)
		}
	}
}

func (ix *Index) readGroups(r *reader) {
	readNamed(r, func(name string, b *roaring.Bitmap) {
		ix.names = append(ix.names, name)
		ix.groups.top[name] = b
	})
	if len(ix.names) > 1<<16-1 {
		r.err = cmpErr(r.err, badFile("%d groups", len(ix.names)))
	}
}

func (v *vocabulary) read(r *reader) {
	readNamed(r, func(w string, b *roaring.Bitmap) { v.words.top[w] = b })
}

func (g *gramTable) read(r *reader) {
	n := r.count(16)
	keys := r.take(8 * n)
	offs := r.take(8 * (n + 1))
	if r.err != nil {
		return
	}
	g.keys, g.offs, g.blobs = u64s(keys), u64s(offs), r.b[r.pos:]
	for i := range n {
		if g.offs[i] > g.offs[i+1] || (i > 0 && g.keys[i-1] >= g.keys[i]) {
			r.err = badFile("gram table out of order")
			return
		}
	}
	if n > 0 && g.offs[n] > uint64(len(g.blobs)) || n == 0 && g.offs[0] != 0 {
		r.err = badFile("gram lists out of bounds")
	}
}

func (t *docTable) read(r *reader) {
	n := r.count(4)
	nums := r.take(4 * n)
	r.align()
	pageBytes := int(unsafe.Sizeof(span{})) << pageBits
	for i := range n {
		if r.err != nil {
			return
		}
		p := int(binary.LittleEndian.Uint32(nums[4*i:]))
		if p >= 1<<(32-pageBits) || p < len(t.pages) {
			r.err = badFile("doc table pages out of order")
			return
		}
		page := r.take(pageBytes)
		if page == nil {
			return
		}
		t.mapPage(p, spans(page))
	}
}

// checkSpans checks that every record's title and value ids lie in the
// arena and its group and values exist, so that a file that passed its checksum but holds a
// wrong table (a bug in the writer) fails here, not in a search.
func (ix *Index) checkSpans() error {
	var bad error
	size := uint64(ix.arena.len())
	ix.all.Iterate(func(id uint32) bool {
		sp, ok := ix.docs.get(id)
		if !ok || uint64(sp.off)+uint64(sp.bytes()) > size || int(sp.group) > len(ix.names) {
			bad = badFile("record %d has no title in the file", id)
			return false
		}
		eachID(ix.arena.valueIDs(sp), func(v uint32) {
			if v == 0 || int(v) > len(ix.values.list) {
				bad = badFile("record %d has value %d of %d", id, v, len(ix.values.list))
			}
		})
		return bad == nil
	})
	return bad
}
