// Package fixedgzip writes gzip members holding one deflate block with
// the fixed Huffman codes of RFC 1951 3.2.6: no code tables to build,
// which on a small body is more than half of a general encoder's time,
// at the price of some bytes. The same input always gives the same
// bytes, so a strong ETag of the compressed form holds on every
// instance. BENCHMARKS.md has the measured trade.
package fixedgzip

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"math/bits"
	"sync"
)

// MaxSize is the largest input for which fixed codes are worth it; on
// longer input a general encoder's per-block tables pay for themselves.
// Longer input is still encoded correctly.
const MaxSize = 32 << 10

const (
	minMatch    = 4     // the hash reads 4 bytes
	maxMatch    = 258   // deflate's longest match
	maxDistance = 32768 // deflate's window
	hashBits    = 13
)

// Fixed literal/length codes, bit-reversed for the LSB-first writer,
// and lengthSym[l-3], the length code (0-28, symbol 257+) of length l.
var (
	litCode, litLen = literalCodes()
	lengthSym       = lengthSymbols()
)

// Length and distance codes: base value and extra bits (RFC 1951 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

func literalCodes() (code [288]uint16, length [288]uint8) {
	for sym := range 288 {
		var c, n int
		switch {
		case sym < 144:
			c, n = 0x30+sym, 8
		case sym < 256:
			c, n = 0x190+sym-144, 9
		case sym < 280:
			c, n = sym-256, 7
		default:
			c, n = 0xc0+sym-280, 8
		}
		code[sym] = bits.Reverse16(uint16(c)) >> (16 - n)
		length[sym] = uint8(n)
	}
	return code, length
}

func lengthSymbols() (sym [maxMatch - 2]uint8) {
	for code := range 29 {
		hi := maxMatch
		if code < 28 {
			hi = int(lengthBase[code+1]) - 1
		}
		for l := int(lengthBase[code]); l <= hi; l++ {
			sym[l-3] = uint8(code)
		}
	}
	return sym
}

// distSym is the distance code of d (1-32768).
func distSym(d int) int {
	if d <= 4 {
		return d - 1
	}
	// Codes come in pairs per power of two: 4 and 5 cover 5-8, ...
	n := bits.Len(uint(d-1)) - 1 // d-1 in [2^n, 2^(n+1))
	return 2*n + int((d-1)>>(n-1)&1)
}

// bitWriter appends bits LSB-first, as deflate wants.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

func (w *bitWriter) flush() {
	for w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc = uint(max(int(w.nacc)-8, 0))
	}
}

// hashTables are cleared before each use although a stale entry would
// only be a candidate (a match is taken only where the bytes are equal):
// it could still change which matches are found, and the same body must
// give the same bytes on every instance, as its strong ETag promises.
var hashTables = sync.Pool{New: func() any { return new([1 << hashBits]int32) }}

func hash4(u uint32) uint32 { return (u * 0x1e35a7bd) >> (32 - hashBits) }

// Append appends src to dst as one gzip member holding a single
// deflate block with fixed Huffman codes: greedy matches of 4 to 258
// bytes found through a hash of 4-byte sequences, the rest literals.
func Append(dst, src []byte) []byte {
	table := hashTables.Get().(*[1 << hashBits]int32)
	dst = encode(dst, src, table)
	hashTables.Put(table)
	return dst
}

// Writer is a gzip writer with the Write, Close and Reset of klauspost's
// and the standard library's: it keeps what it is given and writes it
// as one member (Append) at Close.
type Writer struct {
	w   io.Writer
	in  []byte
	out []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write keeps p for Close.
func (z *Writer) Write(p []byte) (int, error) {
	z.in = append(z.in, p...)
	return len(p), nil
}

// Close writes everything written since the last Reset as one gzip
// member.
func (z *Writer) Close() error {
	z.out = Append(z.out[:0], z.in)
	_, err := z.w.Write(z.out)
	return err
}

// Reset makes z write to w afresh, keeping its buffers for reuse.
func (z *Writer) Reset(w io.Writer) {
	z.w = w
	z.in = z.in[:0]
}

// encode is Append with the hash table to use.
func encode(dst, src []byte, table *[1 << hashBits]int32) []byte {
	clear(table[:])
	// Header: magic, deflate, no flags, no time, no extra flags, OS unknown.
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	w := bitWriter{out: dst}
	w.write(1|1<<1, 3) // BFINAL=1, BTYPE=01 (fixed codes)
	i := 0
	for i+minMatch <= len(src) {
		cur := binary.LittleEndian.Uint32(src[i:])
		h := hash4(cur)
		cand := int(table[h])
		table[h] = int32(i)
		if cand >= i || i-cand > maxDistance || binary.LittleEndian.Uint32(src[cand:]) != cur {
			w.write(uint64(litCode[src[i]]), uint(litLen[src[i]]))
			i++
			continue
		}
		n := matchLen(src, cand, i, min(maxMatch, len(src)-i))
		lc := lengthSym[n-3]
		sym := 257 + int(lc)
		w.write(uint64(litCode[sym]), uint(litLen[sym]))
		if e := lengthExtra[lc]; e > 0 {
			w.write(uint64(n-int(lengthBase[lc])), uint(e))
		}
		d := i - cand
		dc := distSym(d)
		w.write(uint64(bits.Reverse8(uint8(dc))>>3), 5)
		if e := distExtra[dc]; e > 0 {
			w.write(uint64(d-int(distBase[dc])), uint(e))
		}
		i += n
	}
	for ; i < len(src); i++ {
		w.write(uint64(litCode[src[i]]), uint(litLen[src[i]]))
	}
	w.write(uint64(litCode[256]), uint(litLen[256])) // end of block
	w.flush()
	dst = binary.LittleEndian.AppendUint32(w.out, crc32.ChecksumIEEE(src))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
}

// matchLen is the length, from minMatch up to limit, of the match at i
// of the bytes at cand (whose first minMatch bytes are equal), compared
// eight bytes at a time.
func matchLen(src []byte, cand, i, limit int) int {
	n := minMatch
	for n+8 <= limit {
		if x := binary.LittleEndian.Uint64(src[i+n:]) ^ binary.LittleEndian.Uint64(src[cand+n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < limit && src[cand+n] == src[i+n] {
		n++
	}
	return n
}
