package fixedgzip

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	kgzip "github.com/klauspost/compress/gzip"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

// gunzip decodes b with the standard library's reader, which checks the
// deflate stream, the CRC and the length.
func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("gzip header: %v", err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	if rest, _ := io.ReadAll(zr); len(rest) != 0 {
		t.Fatalf("%d bytes after the member", len(rest))
	}
	return out
}

func TestFixedGzipRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 40000)
	for i := range random {
		random[i] = byte(rng.IntN(256))
	}
	page := []byte(`{"items":[` + strings.Repeat(`{"id":123,"title":"Golden sunset part 7","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"},`, 60) + `{}],"total":1}`)
	cases := map[string][]byte{
		"empty":            {},
		"one byte":         {'x'},
		"three bytes":      []byte("abc"),
		"no matches":       []byte("the quick brown fox jumps"),
		"run (distance 1)": bytes.Repeat([]byte{'a'}, 1000),
		"longest matches":  bytes.Repeat([]byte("0123456789"), 3000),
		"random":           random,
		"every byte": func() []byte {
			b := make([]byte, 256*4)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}(),
		"JSON page": page,
		// a repeat exactly one window back, and one just past it
		"window edge": append(append(append([]byte("WINDOWXY"), random[:maxDistance-8]...), "WINDOWXY"...), random[100:140]...),
		"past window": append(append(append([]byte("WINDOWXY"), random[:maxDistance-7]...), "WINDOWXY"...), random[100:140]...),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			// Twice: the second run finds the first one's stale hash entries.
			for range 2 {
				z := Append([]byte("prefix"), in)
				if string(z[:6]) != "prefix" {
					t.Fatal("dst's bytes not kept")
				}
				if got := gunzip(t, z[6:]); !bytes.Equal(got, in) {
					t.Fatalf("round trip of %d bytes gave %d different bytes", len(in), len(got))
				}
			}
		})
	}
	if z := Append(nil, page); len(z) > len(page)/3 {
		t.Errorf("JSON page of %d bytes compressed to %d, want at most a third", len(page), len(z))
	}
}

// The bytes depend on the body alone, not on what a reused hash table
// held before (a strong ETag names them on every instance).
func TestFixedGzipDeterministic(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		src := make([]byte, 8+rng.IntN(200))
		for i := range src {
			src[i] = "ab"[rng.IntN(2)]
		}
		want := encode(nil, src, new([1 << hashBits]int32))
		dirty := new([1 << hashBits]int32)
		for i := range dirty {
			dirty[i] = int32(rng.IntN(len(src)))
		}
		if got := encode(nil, src, dirty); !bytes.Equal(got, want) {
			t.Fatalf("%q: a used hash table changed the bytes", src)
		}
	}
}

// Every distance maps to the code whose range holds it.
func TestDistSym(t *testing.T) {
	t.Parallel()
	for d := 1; d <= maxDistance; d++ {
		c := distSym(d)
		hi := maxDistance
		if c < 29 {
			hi = int(distBase[c+1]) - 1
		}
		if d < int(distBase[c]) || d > hi || d-int(distBase[c]) >= 1<<distExtra[c] {
			t.Fatalf("distance %d: code %d covers %d-%d", d, c, distBase[c], hi)
		}
	}
}

// Writer writes what it was given, in any number of Writes, as one
// member, and starts afresh after Reset.
func TestWriter(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	z := NewWriter(&out)
	for range 2 {
		out.Reset()
		z.Write([]byte(`{"items":[`))
		z.Write([]byte(strings.Repeat(`{"id":1},`, 100)))
		z.Write([]byte(`{}]}`))
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if got, want := string(gunzip(t, out.Bytes())), `{"items":[`+strings.Repeat(`{"id":1},`, 100)+`{}]}`; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
		z.Reset(&out)
	}
}

func FuzzFixedGzip(f *testing.F) {
	f.Add([]byte("hello hello hello"))
	f.Add(bytes.Repeat([]byte{0}, 600))
	f.Add([]byte(`{"items":[{"id":1},{"id":2},{"id":3}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if got := gunzip(t, Append(nil, in)); !bytes.Equal(got, in) {
			t.Fatalf("round trip of %q gave %q", in, got)
		}
	})
}

// demoPage is a page of 20 demo clips as the clip API encodes it.
func demoPage() []byte {
	p, _ := catalog.NewPlatforms(catalog.DefaultPlatforms())
	g := demo.NewGenerator(1, p, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Minute, 0)
	page := []byte(`{"items":[`)
	for i := range 20 {
		c := g.Clip()
		c.ID = int64(500000 - i)
		if i > 0 {
			page = append(page, ',')
		}
		page = c.AppendJSON(page)
	}
	return append(page, `],"total":1000000,"page":25001,"limit":20}`...)
}

func BenchmarkGzipPage(b *testing.B) {
	b.Run("repeated", func(b *testing.B) {
		benchGzip(b, []byte(`{"items":[`+strings.Repeat(`{"id":123456,"title":"Golden sunset part 7 ตอนที่ 3","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ","platform":"YouTube","created_at":"2026-11-21T13:45:07Z"},`, 30)+`{}],"total":1}`))
	})
	b.Run("demo clips", func(b *testing.B) { benchGzip(b, demoPage()) })
}

func benchGzip(b *testing.B, page []byte) {
	kp, _ := kgzip.NewWriterLevel(nil, kgzip.BestSpeed)
	for _, bm := range []struct {
		name string
		z    interface {
			io.WriteCloser
			Reset(io.Writer)
		}
	}{{"fixed", NewWriter(nil)}, {"klauspost", kp}} {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				bm.z.Reset(&out)
				bm.z.Write(page)
				bm.z.Close()
			}
			b.ReportMetric(float64(out.Len()), "outbytes")
		})
	}
}
