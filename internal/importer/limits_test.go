package importer_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

// Ids above 2^32-1 (4294967295) reject their record, naming the
// line, in every format; the records around them are imported, and the
// refused ones leave the id sequence alone, so a later clip still gets
// an id.
func TestIDsAboveMaxRejected(t *testing.T) {
	for name, input := range map[string]string{
		"m.jsonl": `{"name":"no id"}
{"id":4294967296,"name":"one past"}
{"id":9223372036854775807,"name":"int64 max"}
{"id":99999999999999999999,"name":"past int64"}
{"id":4294967295,"name":"largest"}
`,
		"m.json": `[{"name":"no id"},
{"id":4294967296,"name":"one past"},
{"id":9223372036854775807,"name":"int64 max"},
{"id":99999999999999999999,"name":"past int64"},
{"id":4294967295,"name":"largest"}]`,
		"m.csv": "id,name\n,no id\n4294967296,one past\n9223372036854775807,int64 max\n99999999999999999999,past int64\n4294967295,largest\n",
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			sum := importMovies(t, s, name, input, importer.Options{})
			wantSummary(t, sum, 5, 2, 3)
			first := 2
			if strings.HasSuffix(name, ".csv") {
				first = 3
			}
			wantRejects(t, sum, map[int]string{
				first: "id: must be at most 4294967295", first + 1: "id: must be at most 4294967295",
				first + 2: "id: must be at most 4294967295"})
			c := catalog.Clip{Title: "after", IframeURL: "https://example.com/v"}
			if err := s.CreateClip(context.Background(), &c); err != nil {
				t.Fatalf("CreateClip after the import: %v", err)
			}
		})
	}
}

// brokenOff reads as s, then fails as a connection that broke off.
type brokenOff struct{ r *strings.Reader }

func (b brokenOff) Read(p []byte) (int, error) {
	if b.r.Len() == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	return b.r.Read(p)
}

// An input that breaks off (a cut upload) still writes every record read
// whole before the break, and says where the last one starts; the line
// the break cut short is neither written nor rejected.
func TestInputBrokenOffKeepsWhatWasRead(t *testing.T) {
	for name, input := range map[string]string{
		"m.jsonl": "{\"name\":\"one\"}\n{\"name\":\"\"}\n{\"name\":\"three\"}\n{\"name\":\"fo",
		"m.json":  "[{\"name\":\"one\"},\n{\"name\":\"\"},\n{\"name\":\"three\"},\n{\"name\":\"fo",
		"m.csv":   "name\none\n\"\"\nthree\nfo",
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			sum, err := importer.Movies(context.Background(), s, name, brokenOff{strings.NewReader(input)}, importer.Options{})
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("error: got %v, want the input's", err)
			}
			last := 3
			if name == "m.csv" {
				last = 4
			}
			if sum.Imported != 2 || sum.LastLine != last {
				t.Fatalf("summary: got %d imported up to line %d, want 2 up to line %d (%+v)", sum.Imported, sum.LastLine, last, sum)
			}
			if n, _ := s.CountMovies(context.Background()); n != 2 {
				t.Fatalf("movies stored: got %d, want 2", n)
			}
		})
	}
}

// filler reads as n bytes of 'a', without holding them.
type filler struct{ n int64 }

func (f *filler) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), f.n)]
	for i := range p {
		p[i] = 'a'
	}
	f.n -= int64(len(p))
	return len(p), nil
}

// record is a reader of prefix, n filler bytes, then suffix.
func record(prefix string, n int64, suffix string) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), &filler{n: n}, strings.NewReader(suffix))
}

// Every format holds a record to 16 MiB, 16,777,216 bytes: a JSON Lines
// line and a JSON array element as written, a CSV row as its cells and
// commas. One byte more stops the input with ETOOLARGE naming the line.
func TestRecordSizeLimit(t *testing.T) {
	const limit = 16_777_216
	wrap := map[string][2]string{
		"m.jsonl": {"{\"name\":\"first\"}\n{\"name\":\"", "\"}\n"},
		"m.json":  {"[{\"name\":\"first\"},\n{\"name\":\"", "\"}]"},
		"m.csv":   {"name\nfirst\n", "\n"},
	}
	for name, w := range wrap {
		overhead := int64(len(`{"name":""}`))
		if name == "m.csv" {
			overhead = 0
		}
		for _, size := range []int64{limit, limit + 1} {
			t.Run(name+"/"+strconv.FormatInt(size, 10), func(t *testing.T) {
				s := openStore(t)
				sum, err := importer.Movies(context.Background(), s, name, record(w[0], size-overhead, w[1]), importer.Options{DryRun: true})
				if size == limit {
					if err != nil {
						t.Fatalf("a record of %d bytes: got %v, want it read", size, err)
					}
					// Read, and refused by the name's own limit, not by size.
					wantSummary(t, sum, 2, 1, 1)
					return
				}
				line := "line 2: "
				if name == "m.csv" {
					line = "line 3: " // after the header
				}
				if catalog.ErrorCode(err) != catalog.ETOOLARGE || !strings.Contains(catalog.ErrorMessage(err), line+"the record is larger than 16777216 bytes") {
					t.Fatalf("a record of %d bytes: got %v, want ETOOLARGE naming %s", size, err, line)
				}
				if sum.Read != 1 || sum.Imported != 1 {
					t.Fatalf("summary: got %+v, want the first record read and imported", sum)
				}
			})
		}
	}
}

// Memory stays bounded whatever one record holds: a 256 MiB record is
// refused after reading about the limit, in every format.
func TestRecordSizeBoundsMemory(t *testing.T) {
	for name, w := range map[string][2]string{
		"m.jsonl": {"{\"synopsis\":\"", "\"}\n"},
		"m.json":  {"[{\"synopsis\":\"", "\"}]"},
		"m.csv":   {"synopsis\n", "\n"},
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := importer.Movies(context.Background(), nil, name, record(w[0], 256<<20, w[1]), importer.Options{DryRun: true})
			runtime.ReadMemStats(&after)
			if catalog.ErrorCode(err) != catalog.ETOOLARGE {
				t.Fatalf("got %v, want ETOOLARGE", err)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("a 256 MiB record: %d MiB allocated in all", alloc>>20)
			if alloc > 160<<20 {
				t.Fatalf("allocated %d MiB for one record, want at most 160 MiB", alloc>>20)
			}
		})
	}
}

// largeMovies is a JSON Lines stream of n movies, each with about size
// bytes of episodes, generated as it is read.
type largeMovies struct {
	n, size, next int
	buf           []byte
}

func (l *largeMovies) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		if l.next == l.n {
			return 0, io.EOF
		}
		l.next++
		b := fmt.Appendf(l.buf[:0], `{"id_code": "LARGE-%06d", "name": "Large %d", "episodes": [{"server_name": "Main", "server_data": [`, l.next, l.next)
		for e := 1; len(b) < l.size; e++ {
			if e > 1 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `{"name": "Episode %d", "link_embed": "https://player.example.com/embed/%06d/%d", "link_m3u8": "https://cdn.example.com/hls/%06d/%d/index.m3u8"}`,
				e, l.next, e, l.next, e)
		}
		l.buf = append(b, "]}]}\n"...)
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// heapSampler is a real store that measures the live heap each time a
// batch reaches it, when the batcher holds the most: the batch handed
// over, and the one before it still being written.
type heapSampler struct {
	catalog.MovieStore
	peak uint64
}

func (h *heapSampler) UpsertMovies(ctx context.Context, movies []catalog.Movie) error {
	if live := liveHeap(); live > h.peak {
		h.peak = live
	}
	return h.MovieStore.UpsertMovies(ctx, movies)
}

// liveHeap is the heap a full collection leaves.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// An import's memory is bounded by the input of its batches, whatever
// its records hold: 80 MB of movies with 200 KB of episodes each, far
// fewer than BatchSize records, are written in batches of about
// BatchBytes of input, and the live heap stays within a few batches.
// Unbounded, the whole input is one batch and the heap grows past
// twice the bound. The bound leaves room for what the decoder allocates
// while liveHeap's collection marks: that counts as live, and grows
// with the machine's load.
func TestBatchBytesBoundMemory(t *testing.T) {
	const batch = 4 << 20
	const size, n = 200_000, 400 // 80 MB
	store := &heapSampler{MovieStore: openStore(t)}
	base := liveHeap()
	sum, err := importer.Movies(context.Background(), store, "large.jsonl", &largeMovies{n: n, size: size}, importer.Options{BatchBytes: batch})
	if err != nil || sum.Imported != n {
		t.Fatalf("import: %+v, %v; want %d imported", sum, err, n)
	}
	grew := int64(store.peak) - int64(base)
	t.Logf("%d MB in batches of %d MiB of input: the live heap grew %d MiB at most", n*size/1_000_000, batch>>20, grew>>20)
	if grew > 12*batch {
		t.Fatalf("the live heap grew %d MiB, want at most %d MiB (12 batches of input)", grew>>20, 12*batch>>20)
	}
}
