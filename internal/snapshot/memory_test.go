package snapshot

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// generatedStore streams n synthetic movies, each with freshly allocated
// text, so that a Write that kept movies would keep their memory. It
// stands in for a database here because filling SQLite with a catalog
// big enough to measure takes far longer than the rest of the suite, and
// the store's own memory would blur what Write holds.
type generatedStore struct {
	n       int
	onMovie func(i int)
}

func (g generatedStore) CountMovies(context.Context) (int64, error) { return int64(g.n), nil }

func (g generatedStore) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	synopsis := strings.Repeat("a long synopsis ", 64) // 1 KiB
	for i := g.n; i >= 1; i-- {
		m := catalog.Movie{
			ID:       int64(i),
			Name:     "Movie " + strconv.Itoa(i),
			Synopsis: synopsis[:len(synopsis)-1] + strconv.Itoa(i%10), // a fresh copy
		}
		m.Lists[0] = catalog.NewList([]string{"Drama", "Genre " + strconv.Itoa(i)})
		if err := fn(&m); err != nil {
			return err
		}
		if g.onMovie != nil {
			g.onMovie(i)
		}
	}
	return nil
}

var errNotGenerated = errors.New("not part of the generated store")

func (generatedStore) GetMovie(context.Context, int64) (catalog.Movie, error) {
	return catalog.Movie{}, errNotGenerated
}
func (generatedStore) UpsertMovies(context.Context, []catalog.Movie) error { return errNotGenerated }
func (generatedStore) MovieIDByKey(context.Context, string, string) (int64, error) {
	return 0, errNotGenerated
}
func (generatedStore) DeleteMovie(context.Context, int64) error          { return errNotGenerated }
func (generatedStore) UpdateMovie(context.Context, *catalog.Movie) error { return errNotGenerated }
func (generatedStore) ExportMovies(context.Context, func(*catalog.Movie) error) error {
	return errNotGenerated
}

// TestWriteMemory checks that Write does not hold the catalog: the live
// heap sampled while 50,000 movies (about 55 MB of JSON) stream through
// stays far below what keeping them would take.
func TestWriteMemory(t *testing.T) {
	const movies = 50_000
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	store := generatedStore{n: movies, onMovie: func(i int) {
		if i%5000 == 0 {
			// A forced collection leaves only what is still reachable.
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}}
	var out countingWriter
	if err := Write(context.Background(), store, &out, time.Now()); err != nil {
		t.Fatalf("write: %v", err)
	}
	if out.n < movies*1000 {
		t.Fatalf("wrote only %d bytes", out.n)
	}
	const bound = 8 << 20
	if peak > base && peak-base > bound {
		t.Errorf("live heap grew by %d bytes while writing %d bytes, want at most %d", peak-base, out.n, bound)
	}
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
