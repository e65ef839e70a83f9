package cache

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/coalesce"
)

// fakeReads is a keyed read that records the ids of every call and
// blocks each call until release is closed (when hold is set).
type fakeReads struct {
	mu      sync.Mutex
	calls   [][]int64
	hold    bool
	release chan struct{}
	fail    error
}

type rec struct{ id int64 }

func (f *fakeReads) read(ctx context.Context, ids []int64) ([]rec, error) {
	f.mu.Lock()
	f.calls = append(f.calls, slices.Clone(ids))
	hold := f.hold
	f.mu.Unlock()
	if hold {
		<-f.release
	}
	if f.fail != nil {
		return nil, f.fail
	}
	var out []rec
	for _, id := range ids {
		if id > 0 { // ids <= 0 are missing
			out = append(out, rec{id})
		}
	}
	return out, nil
}

func (f *fakeReads) seen() [][]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

type got struct {
	v   rec
	ok  bool
	err error
}

// records returns Records over f with one slot.
func records(f *fakeReads) *Records[rec] {
	r := NewRecords(f.read, func(v *rec) int64 { return v.id })
	r.group = coalesce.New(1, maxShared, readTimeout, r.readShared)
	return r
}

func TestRecordsReadAloneWhenIdle(t *testing.T) {
	f := &fakeReads{}
	r := records(f)
	v, ok, err := r.Get(context.Background(), 7)
	if err != nil || !ok || v.id != 7 {
		t.Fatalf("Get(7) = %v, %v, %v", v, ok, err)
	}
	_, ok, err = r.Get(context.Background(), -1)
	if err != nil || ok {
		t.Fatalf("Get(-1) = ok %v, %v; want not found", ok, err)
	}
	if want := [][]int64{{7}, {-1}}; !slices.EqualFunc(f.seen(), want, slices.Equal) {
		t.Fatalf("reads %v, want %v", f.seen(), want)
	}
}

// While a read runs, the requests that arrive share the next one, which
// starts when the running one ends; none joins the running read.
func TestRecordsShareTheNextRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeReads{hold: true, release: make(chan struct{})}
		r := records(f)
		results := make(map[int64]got)
		var mu sync.Mutex
		get := func(id int64) {
			v, ok, err := r.Get(context.Background(), id)
			mu.Lock()
			results[id] = got{v, ok, err}
			mu.Unlock()
		}
		go get(1)
		synctest.Wait() // 1 reads alone and holds the slot
		for _, id := range []int64{2, 3, -4} {
			go get(id)
		}
		synctest.Wait()
		if want := [][]int64{{1}}; !slices.EqualFunc(f.seen(), want, slices.Equal) {
			t.Fatalf("while the first read runs: reads %v, want %v", f.seen(), want)
		}
		close(f.release)
		synctest.Wait()
		calls := f.seen()
		if len(calls) == 2 {
			slices.Sort(calls[1]) // the three joined in no set order
		}
		if want := [][]int64{{1}, {-4, 2, 3}}; !slices.EqualFunc(calls, want, slices.Equal) {
			t.Fatalf("reads %v, want %v", calls, want)
		}
		for _, id := range []int64{1, 2, 3} {
			if g := results[id]; g.err != nil || !g.ok || g.v.id != id {
				t.Errorf("Get(%d) = %+v", id, g)
			}
		}
		if g := results[-4]; g.err != nil || g.ok {
			t.Errorf("Get(-4) = %+v, want not found", g)
		}
	})
}

// A shared read carries at most maxShared ids; the rest wait for the
// read after it, in the order they came.
func TestRecordsBoundASharedRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeReads{hold: true, release: make(chan struct{})}
		r := records(f)
		go r.Get(context.Background(), 1)
		synctest.Wait()
		for i := range maxShared + 5 {
			go r.Get(context.Background(), int64(100+i))
			synctest.Wait() // one at a time, so the order is known
		}
		close(f.release)
		synctest.Wait()
		calls := f.seen()
		if len(calls) != 3 || len(calls[1]) != maxShared || len(calls[2]) != 5 {
			t.Fatalf("reads of %v ids, want 1, %d, 5", lens(calls), maxShared)
		}
		if calls[1][0] != 100 || calls[2][0] != 100+maxShared {
			t.Fatalf("shared reads start with %d and %d, want 100 and %d", calls[1][0], calls[2][0], 100+maxShared)
		}
	})
}

func lens(calls [][]int64) []int {
	var n []int
	for _, c := range calls {
		n = append(n, len(c))
	}
	return n
}

// A waiting request stops at its own deadline (a 503) without taking
// the others with it; a failed shared read fails every request in it.
func TestRecordsDeadlinesAndErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeReads{hold: true, release: make(chan struct{})}
		r := records(f)
		go r.Get(context.Background(), 1)
		synctest.Wait()
		var short, long got
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			short.v, short.ok, short.err = r.Get(ctx, 2)
		}()
		go func() { long.v, long.ok, long.err = r.Get(context.Background(), 3) }()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if catalog.ErrorCode(short.err) != catalog.EUNAVAILABLE {
			t.Errorf("past its deadline: %v (code %q), want EUNAVAILABLE", short.err, catalog.ErrorCode(short.err))
		}
		f.mu.Lock()
		f.fail = errors.New("database gone")
		f.mu.Unlock()
		close(f.release)
		synctest.Wait()
		if long.err == nil || long.err.Error() != "database gone" {
			t.Errorf("in a failed read: %v, want its error", long.err)
		}
	})
}
