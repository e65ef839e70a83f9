package snapshot

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"

	"testing"
)

// TestMemberWriter checks the file layout: one gzip stream for readers
// that take it whole, made of members of exactly the given decompressed
// size, each starting where the index says.
func TestMemberWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 10_000)
	for i := range data {
		data[i] = "abcdefgh{}[],:\" 0123456789"[rng.IntN(26)]
	}
	for _, size := range []int64{1, 999, 1000, 9_999, 10_000, 1 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			var buf bytes.Buffer
			zw, err := newMemberWriter(&buf, size)
			if err != nil {
				t.Fatal(err)
			}
			// Writes of every length, so members end mid-write.
			for rest := data; len(rest) > 0; {
				k := min(len(rest), 1+rng.IntN(3000))
				if n, err := zw.Write(rest[:k]); n != k || err != nil {
					t.Fatalf("write: got %d, %v; want %d", n, err, k)
				}
				rest = rest[k:]
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			file := buf.Bytes()
			if got := gunzip(t, file); !bytes.Equal(got, data) {
				t.Fatalf("the whole file decompresses to %d bytes, want the %d written", len(got), len(data))
			}
			wantMembers := (len(data) + int(size) - 1) / int(size)
			if len(zw.index) != wantMembers {
				t.Fatalf("got %d members, want %d", len(zw.index), wantMembers)
			}
			for i, m := range zw.index {
				if m.off != int64(i)*size {
					t.Fatalf("member %d starts at %d, want %d", i, m.off, int64(i)*size)
				}
				zr, err := gzip.NewReader(bytes.NewReader(file[m.zoff:]))
				if err != nil {
					t.Fatalf("member %d at %d: %v", i, m.zoff, err)
				}
				zr.Multistream(false)
				got, err := io.ReadAll(zr)
				if want := data[m.off:min(m.off+size, int64(len(data)))]; err != nil || !bytes.Equal(got, want) {
					t.Fatalf("member %d: got %d bytes (%v), want %d", i, len(got), err, len(want))
				}
			}
		})
	}
}

// TestRangeCost pins contract 4.4: a Range on the decompressed form
// costs at most about 1 MiB of decompression wherever it starts. With
// 50,000 movies the document is over 10 MiB, so decompressing from the
// start, as a file of one member forces, fails the bound.
func TestRangeCost(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 1, 50_000)
	s := newTestService(t, store)
	refresh(t, s)
	b := s.current.Load()
	whole := gunzipFile(t, b.path)
	n := len(whole)
	if n < 10<<20 {
		t.Fatalf("the document has %d bytes, want over 10 MiB for the test to mean anything", n)
	}
	// Clients that take the file whole still get one gzip stream.
	if out, err := exec.Command("gzip", "-t", b.path).CombinedOutput(); err != nil {
		t.Errorf("gzip -t: %v: %s", err, out)
	}

	const bound = 1<<20 + 64<<10 // "about 1 MiB"
	tests := []struct {
		rng         string
		first, last int
	}{
		{"bytes=-1", n - 1, n - 1},
		{"bytes=-100", n - 100, n - 1},
		{fmt.Sprintf("bytes=%d-", n-5000), n - 5000, n - 1},
		{fmt.Sprintf("bytes=%d-%d", n/2, n/2+999), n / 2, n/2 + 999},
		{fmt.Sprintf("bytes=%d-%d", 3<<20-10, 3<<20+9), 3<<20 - 10, 3<<20 + 9}, // across a member boundary
		{fmt.Sprintf("bytes=%d-%d", 5<<20-1, 5<<20-1), 5<<20 - 1, 5<<20 - 1},   // a member's last byte
		{"bytes=0-0", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.rng, func(t *testing.T) {
			before := s.inflated.Load()
			r := serve(t, s, http.MethodGet, "Range", tt.rng)
			if r.status != http.StatusPartialContent || !bytes.Equal(r.body, whole[tt.first:tt.last+1]) {
				t.Fatalf("got %d with %d bytes, want 206 with bytes %d-%d", r.status, len(r.body), tt.first, tt.last)
			}
			length := int64(tt.last - tt.first + 1)
			if cost := s.inflated.Load() - before; cost > bound+length {
				t.Errorf("decompressed %d bytes for a %d-byte range, want at most %d", cost, length, bound+length)
			}
		})
	}

	// The measure itself: the one-member layout decompresses everything
	// before the range.
	s.memberSize = 1 << 62
	refresh(t, s)
	before := s.inflated.Load()
	if r := serve(t, s, http.MethodGet, "Range", "bytes=-1"); r.status != http.StatusPartialContent {
		t.Fatalf("one member: got %d, want 206", r.status)
	}
	if cost := s.inflated.Load() - before; cost < int64(n-1) {
		t.Errorf("one member: decompressed %d bytes for the last byte, want the whole %d", cost, n)
	}
}

func gunzipFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return gunzip(t, b)
}
