package snapshot

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"catalog/internal/testenv"
)

// TestIndexedGzipWriter checks the file layout: exactly one gzip member,
// which Go's decoder reads whole without looking for a second one, and a
// full-flush point every `every` decompressed bytes, each starting a raw
// deflate stream that decodes to the rest of the document on its own.
func TestIndexedGzipWriter(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 10_000)
	for i := range data {
		data[i] = "abcdefgh{}[],:\" 0123456789"[rng.IntN(26)]
	}
	for _, every := range []int64{7, 999, 1000, 9_999, 10_000, 1 << 20} {
		t.Run(fmt.Sprint(every), func(t *testing.T) {
			var buf bytes.Buffer
			zw, err := newIndexedGzipWriter(&buf, every)
			if err != nil {
				t.Fatal(err)
			}
			// Writes of every length, so flush points fall mid-write.
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
			if got := firstMember(t, file); !bytes.Equal(got, data) {
				t.Fatalf("the first gzip member decompresses to %d bytes, want the %d written", len(got), len(data))
			}
			wantPoints := (len(data) + int(every) - 1) / int(every)
			if len(zw.index) != wantPoints {
				t.Fatalf("got %d flush points, want %d", len(zw.index), wantPoints)
			}
			for i, p := range zw.index {
				if p.off != int64(i)*every {
					t.Fatalf("flush point %d is at %d, want %d", i, p.off, int64(i)*every)
				}
				got, err := io.ReadAll(flate.NewReader(bytes.NewReader(file[p.zoff:])))
				if err != nil || !bytes.Equal(got, data[p.off:]) {
					t.Fatalf("inflating from flush point %d (file offset %d): got %d bytes (%v), want the %d after it",
						i, p.zoff, len(got), err, len(data)-int(p.off))
				}
			}
		})
	}
}

// firstMember decodes the first gzip member of file, as HTTP clients do
// (curl, browsers and Varnish stop after it), and fails the test unless
// the member's trailer ends the file: a second member would be lost to
// them. Go's decoder checks the trailer's CRC-32 and length.
func firstMember(t testing.TB, file []byte) []byte {
	t.Helper()
	r := bytes.NewReader(file) // an io.ByteReader: the decoder reads no further than the member
	zr, err := gzip.NewReader(r)
	if err != nil {
		t.Fatalf("gzip header: %v", err)
	}
	zr.Multistream(false)
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("first gzip member: %v", err)
	}
	if r.Len() != 0 {
		t.Fatalf("%d bytes follow the first gzip member of a %d-byte file, want none (one member)", r.Len(), len(file))
	}
	return got
}

// TestOneGzipMember pins contract 4.4 on the file the service serves, at
// several MiB of JSON (many flush intervals): the gzip form is one
// member, so that curl --compressed, which decodes only the first, saves
// the whole document.
func TestOneGzipMember(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 15_000)
	s := newTestService(t, store)
	refresh(t, s)
	b := s.current.Load()
	if b.plainSize < 3<<20 {
		t.Fatalf("the document has %d bytes, want over 3 MiB for the test to mean anything", b.plainSize)
	}
	file, err := os.ReadFile(b.path)
	if err != nil {
		t.Fatal(err)
	}
	if got := firstMember(t, file); int64(len(got)) != b.plainSize {
		t.Fatalf("the first member decompresses to %d bytes, want %d", len(got), b.plainSize)
	}
	plain := serve(t, s, http.MethodGet)
	if !bytes.Equal(gunzip(t, file), plain.body) {
		t.Errorf("the gzip file does not decompress to the plain answer")
	}
	if out, err := exec.Command("gzip", "-t", b.path).CombinedOutput(); err != nil {
		t.Errorf("gzip -t: %v: %s", err, out)
	}

	t.Run("curl --compressed", func(t *testing.T) {
		curl, err := exec.LookPath("curl")
		if err != nil {
			testenv.SkipOrFail(t, "curl not installed; skipping the curl client test")
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := s.Serve(w, r); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
			}
		}))
		defer srv.Close()
		out := filepath.Join(t.TempDir(), "snapshot.json")
		cmd := exec.Command(curl, "--compressed", "--silent", "--show-error", "--dump-header", "-", "-o", out, srv.URL)
		header, err := cmd.Output()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			t.Fatalf("curl --compressed: %v: %s", err, ee.Stderr)
		} else if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(bytes.ToLower(header), []byte("content-encoding: gzip")) {
			t.Fatalf("curl was not sent gzip:\n%s", header)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain.body) {
			t.Errorf("curl --compressed saved %d bytes, want the %d-byte plain form", len(got), len(plain.body))
		}
	})
}

// TestRangeCost pins contract 4.4: a Range on the decompressed form
// costs at most about 1 MiB of decompression wherever it starts. With
// 50,000 movies the document is over 10 MiB, so decompressing from the
// start, as a file without flush points forces, fails the bound.
func TestRangeCost(t *testing.T) {
	t.Parallel()
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

	const bound = 1<<20 + 64<<10 // "about 1 MiB"
	tests := []struct {
		rng         string
		first, last int
	}{
		{"bytes=-1", n - 1, n - 1},
		{"bytes=-100", n - 100, n - 1},
		{fmt.Sprintf("bytes=%d-", n-5000), n - 5000, n - 1},
		{fmt.Sprintf("bytes=%d-%d", n/2, n/2+999), n / 2, n/2 + 999},
		{fmt.Sprintf("bytes=%d-%d", 3<<20-10, 3<<20+9), 3<<20 - 10, 3<<20 + 9}, // across a flush point
		{fmt.Sprintf("bytes=%d-%d", 5<<20-1, 5<<20-1), 5<<20 - 1, 5<<20 - 1},   // the last byte before one
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

	// The measure itself: without flush points everything before the
	// range is decompressed.
	s.flushEvery = 1 << 62
	refresh(t, s)
	before := s.inflated.Load()
	if r := serve(t, s, http.MethodGet, "Range", "bytes=-1"); r.status != http.StatusPartialContent {
		t.Fatalf("no flush points: got %d, want 206", r.status)
	}
	if cost := s.inflated.Load() - before; cost < int64(n-1) {
		t.Errorf("no flush points: decompressed %d bytes for the last byte, want the whole %d", cost, n)
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
