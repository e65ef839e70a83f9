package snapshot

import (
	"io"
	"sort"

	"github.com/klauspost/compress/gzip"
)

// memberSize is the decompressed length of each gzip member of a
// snapshot file (contract 4.4: a Range on the decompressed form costs at
// most about 1 MiB of decompression). A member restarts the compressor's
// 32 KiB window and adds a header: 27 MiB of demo movies compress to
// 2.89 MiB in members against 2.85 MiB in one.
const memberSize = 1 << 20

// member locates one gzip member of a snapshot file.
type member struct {
	zoff int64 // offset of the member's gzip header in the file
	off  int64 // offset of its first byte in the decompressed document
}

// memberWriter compresses into a series of gzip members of size
// decompressed bytes each (the last one shorter) and records where each
// member starts. Concatenated members are one gzip file (RFC 1952 2.2):
// gzip -t, browsers and Go's gzip.Reader read them as one stream, while a
// reader that knows the index can start decompressing at any member.
//
// The index is not written into the file: the service keeps it in memory
// beside the file's identity (see built), both taken from the one write
// that produced the file, so it cannot describe another file; a process
// that starts anew builds a new snapshot before it serves one.
type memberWriter struct {
	w     io.Writer
	zw    *gzip.Writer
	size  int64
	zn    int64 // compressed bytes written to w
	n     int64 // decompressed bytes in the current member
	off   int64 // decompressed bytes in all members
	index []member
}

func newMemberWriter(w io.Writer, size int64) (*memberWriter, error) {
	m := &memberWriter{size: size, index: []member{{}}}
	m.w = countingTo{w: w, n: &m.zn}
	zw, err := gzip.NewWriterLevel(m.w, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	m.zw = zw
	return m, nil
}

func (m *memberWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if m.n == m.size {
			if err := m.zw.Close(); err != nil {
				return written, err
			}
			m.zw.Reset(m.w)
			m.n = 0
			m.index = append(m.index, member{zoff: m.zn, off: m.off})
		}
		k := int(min(int64(len(p)), m.size-m.n))
		n, err := m.zw.Write(p[:k])
		written += n
		m.n += int64(n)
		m.off += int64(n)
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}

// Close ends the last member; the index is complete after it.
func (m *memberWriter) Close() error { return m.zw.Close() }

// countingTo passes writes on to w and counts them in *n.
type countingTo struct {
	w io.Writer
	n *int64
}

func (c countingTo) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// nearest returns the last member starting at or before off (the first
// when index is empty, as for a file written in one member).
func nearest(index []member, off int64) member {
	i := sort.Search(len(index), func(i int) bool { return index[i].off > off })
	if i == 0 {
		return member{}
	}
	return index[i-1]
}
