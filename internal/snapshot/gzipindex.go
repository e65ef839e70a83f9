package snapshot

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"sort"

	"github.com/klauspost/compress/flate"
)

// flushEvery is the decompressed length between two full-flush points
// of a snapshot file (contract 4.4: a Range on the decompressed form
// costs at most about 1 MiB of decompression wherever it starts).
const flushEvery = 1 << 20

// gzipHeader is the fixed gzip header (RFC 1952 2.3): deflate, no flags,
// no modification time, no extra flags, operating system unknown.
var gzipHeader = [10]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// flushPoint locates one full-flush point of a snapshot file: a place in
// the deflate stream where the compressor's window was empty, so that a
// raw inflater started there decodes the rest of the document.
type flushPoint struct {
	zoff int64 // offset in the file of the first deflate block after the point
	off  int64 // offset of its first byte in the decompressed document
}

// indexedGzipWriter writes one gzip member (RFC 1952) holding one deflate
// stream, with a full flush every `every` decompressed bytes, and records
// where each flush point is. HTTP clients (curl, browsers, Varnish) decode
// only the first member of a gzip body, so the file must be exactly one;
// the flush points give a reader that knows the index a place to start
// inflating near any offset.
//
// A full flush is a sync flush (the stream so far ends on a byte
// boundary with an empty stored block, RFC 1951 3.2.4) followed by a
// fresh compressor: nothing after the point refers back past it.
//
// The index is not written into the file: the service keeps it in memory
// beside the file's identity (see built), both taken from the one write
// that produced the file, so it cannot describe another file; a process
// that starts anew builds a new snapshot before it serves one.
type indexedGzipWriter struct {
	w     io.Writer
	zw    *flate.Writer
	every int64
	zn    int64 // compressed bytes written to w
	n     int64 // decompressed bytes since the last flush point
	off   int64 // decompressed bytes in all
	crc   uint32
	index []flushPoint
}

func newIndexedGzipWriter(w io.Writer, every int64) (*indexedGzipWriter, error) {
	g := &indexedGzipWriter{every: every}
	g.w = countingTo{w: w, n: &g.zn}
	if _, err := g.w.Write(gzipHeader[:]); err != nil {
		return nil, err
	}
	zw, err := flate.NewWriter(g.w, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	g.zw = zw
	g.index = []flushPoint{{zoff: g.zn}}
	return g, nil
}

func (g *indexedGzipWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if g.n == g.every {
			if err := g.zw.Flush(); err != nil {
				return written, err
			}
			g.zw.Reset(g.w)
			g.n = 0
			g.index = append(g.index, flushPoint{zoff: g.zn, off: g.off})
		}
		k := int(min(int64(len(p)), g.every-g.n))
		n, err := g.zw.Write(p[:k])
		g.crc = crc32.Update(g.crc, crc32.IEEETable, p[:n])
		written += n
		g.n += int64(n)
		g.off += int64(n)
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}

// Close ends the deflate stream and writes the gzip trailer (CRC-32 and
// length modulo 2^32); the index is complete after it.
func (g *indexedGzipWriter) Close() error {
	if err := g.zw.Close(); err != nil {
		return err
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], g.crc)
	binary.LittleEndian.PutUint32(trailer[4:], uint32(g.off))
	_, err := g.w.Write(trailer[:])
	return err
}

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

// nearest returns the last flush point at or before off; index is never
// empty (its first point is the start of the deflate stream).
func nearest(index []flushPoint, off int64) flushPoint {
	i := sort.Search(len(index), func(i int) bool { return index[i].off > off })
	return index[max(i-1, 0)]
}
