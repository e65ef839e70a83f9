package httpx

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"sync"
)

// fixedGzipMax is the largest body compressed by appendFixedGzip; larger
// ones go through klauspost's encoder, whose per-block Huffman tables pay
// for themselves on long input.
//
// Why a hand-written encoder: a fresh 6 KB page cost 17-27 µs in
// klauspost's fastest level, more than half of it building the dynamic
// Huffman tables of its one small block (27 % of serve CPU for cold deep
// pages on PostgreSQL, 17 % on SQLite), and no library option skips
// that. Deflate's fixed codes (RFC 1951 3.2.6) need no tables, at the cost
// of some bytes (BENCHMARKS.md has both).
const fixedGzipMax = 32 << 10

const (
	minMatch    = 4     // the hash reads 4 bytes
	maxMatch    = 258   // deflate's longest match
	maxDistance = 32768 // deflate's window
	hashBits    = 13
)

// Fixed literal/length codes, bit-reversed for the LSB-first writer.
var (
	litCode [288]uint16
	litLen  [288]uint8
	// lengthSym[l-3] is the length code (0-28, symbol 257+) of length l.
	lengthSym [maxMatch - 2]uint8
)

// Length and distance codes: base value and extra bits (RFC 1951 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

func init() {
	for sym := range 288 {
		var code, n int
		switch {
		case sym < 144:
			code, n = 0x30+sym, 8
		case sym < 256:
			code, n = 0x190+sym-144, 9
		case sym < 280:
			code, n = sym-256, 7
		default:
			code, n = 0xc0+sym-280, 8
		}
		litCode[sym] = bits.Reverse16(uint16(code)) >> (16 - n)
		litLen[sym] = uint8(n)
	}
	for code := range 29 {
		hi := maxMatch
		if code < 28 {
			hi = int(lengthBase[code+1]) - 1
		}
		for l := int(lengthBase[code]); l <= hi; l++ {
			lengthSym[l-3] = uint8(code)
		}
	}
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

// appendFixedGzip appends src to dst as one gzip member holding a single
// deflate block with fixed Huffman codes: greedy matches of 4 to 258
// bytes found through a hash of 4-byte sequences, the rest literals.
func appendFixedGzip(dst, src []byte) []byte {
	table := hashTables.Get().(*[1 << hashBits]int32)
	dst = encodeFixedGzip(dst, src, table)
	hashTables.Put(table)
	return dst
}

// encodeFixedGzip is appendFixedGzip with the hash table to use.
func encodeFixedGzip(dst, src []byte, table *[1 << hashBits]int32) []byte {
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
		n := minMatch
		for limit := min(maxMatch, len(src)-i); n < limit && src[cand+n] == src[i+n]; n++ {
		}
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
