package testdb

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// PlainStore hides every optional interface of s (catalog.KeysetStore,
// catalog.SearchLog): the services then take their fallback paths (deep
// pages by OFFSET, the whole database's data version), which must give
// the same answers.
func PlainStore(s catalog.Store) catalog.Store { return struct{ catalog.Store }{s} }

// Seeks is a store whose catalog.KeysetStore methods are counted, so
// that a test knows a page was served by a seek. It keeps
// catalog.SearchLog: the id orders carry the per-kind versions it
// reports, and without it the services would never find an order
// current.
type Seeks struct {
	loggingStore
	keyset catalog.KeysetStore
	n      atomic.Int64
}

type loggingStore interface {
	catalog.Store
	catalog.SearchLog
}

// CountSeeks wraps s, which must implement catalog.KeysetStore and
// catalog.SearchLog (both engines do).
func CountSeeks(t testing.TB, s catalog.Store) *Seeks {
	t.Helper()
	ks, ok := s.(catalog.KeysetStore)
	ls, ok2 := s.(loggingStore)
	if !ok || !ok2 {
		t.Fatalf("%T does not implement catalog.KeysetStore and catalog.SearchLog", s)
	}
	return &Seeks{loggingStore: ls, keyset: ks}
}

// Count is the number of ClipsFrom and MoviesFrom calls so far.
func (s *Seeks) Count() int64 { return s.n.Load() }

// The catalog.KeysetStore methods delegate to the wrapped store; the
// page fetches are counted.

func (s *Seeks) ClipIDs(ctx context.Context, platform string, fn func(id int64)) (int64, error) {
	return s.keyset.ClipIDs(ctx, platform, fn)
}

func (s *Seeks) ClipsFrom(ctx context.Context, platform string, from, skip, limit int64) ([]catalog.Clip, error) {
	s.n.Add(1)
	return s.keyset.ClipsFrom(ctx, platform, from, skip, limit)
}

func (s *Seeks) MovieIDs(ctx context.Context, fn func(id int64)) (int64, error) {
	return s.keyset.MovieIDs(ctx, fn)
}

func (s *Seeks) MoviesFrom(ctx context.Context, from, skip, limit int64, fields catalog.FieldSet) ([]catalog.Movie, error) {
	s.n.Add(1)
	return s.keyset.MoviesFrom(ctx, from, skip, limit, fields)
}

// SeekWarm calls get with i = 0, 1, 2, ... until it causes a seek: the
// services build their id orders in the background and fall back to
// OFFSET until then, so a test of the seek path first waits for it. get
// should ask for a deep page whose cache key differs with i.
func (s *Seeks) SeekWarm(t testing.TB, get func(i int)) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		before := s.Count()
		get(i)
		if s.Count() > before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no deep page was served by a seek after 3000 tries")
}
