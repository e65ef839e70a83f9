package cache

import (
	"context"
	"runtime"
	"sync"

	"catalog/internal/catalog"
)

// maxShared bounds the ids of one shared read: the engines' keyed reads
// pad an IN list to a multiple of ten, so this keeps their statements
// to a handful of texts.
const maxShared = 60

// Records reads one record at a time for the detail endpoints, in keyed
// reads that concurrent requests share. A keyed read of n ids costs
// far less than n reads of one, each of which pays the statement, the
// connection and the read transaction again (BenchmarkKeyedReadSizes in
// internal/sqlite).
//
// A request that finds fewer than one read per core running starts one
// with its own id at once, so an idle server adds no delay. Otherwise
// it joins the next read, which starts as soon as a running one ends
// and carries every id that joined before it started. A request never
// joins a read already running: the read it gets started after it
// arrived, so it sees every write committed before, as a read of its
// own would.
type Records[V any] struct {
	read  func(ctx context.Context, ids []int64) ([]V, error)
	id    func(*V) int64
	slots int

	mu      sync.Mutex
	running int
	waiting []*shared[V] // not started yet, oldest first; only the last may be joined
}

type shared[V any] struct {
	ids  []int64
	done chan struct{}
	got  []V
	err  error
}

// NewRecords returns Records over read, the store's keyed read (the
// records of ids that exist, in any order), with id naming a record's
// id.
func NewRecords[V any](read func(ctx context.Context, ids []int64) ([]V, error), id func(*V) int64) *Records[V] {
	return &Records[V]{read: read, id: id, slots: runtime.GOMAXPROCS(0)}
}

// Get returns the record with the given id; ok is false when there is
// none. An error is the read's, or ctx's when it ended first.
func (r *Records[V]) Get(ctx context.Context, id int64) (v V, ok bool, err error) {
	r.mu.Lock()
	if r.running < r.slots {
		r.running++
		r.mu.Unlock()
		// Read alone, so the caller's context may cancel it.
		got, err := r.read(ctx, []int64{id})
		r.next()
		return r.find(got, id, err)
	}
	var s *shared[V]
	if n := len(r.waiting); n > 0 && len(r.waiting[n-1].ids) < maxShared {
		s = r.waiting[n-1]
	} else {
		s = &shared[V]{done: make(chan struct{})}
		r.waiting = append(r.waiting, s)
	}
	s.ids = append(s.ids, id)
	r.mu.Unlock()
	select {
	case <-s.done:
		return r.find(s.got, id, s.err)
	case <-ctx.Done():
		return v, false, catalog.ContextError("record", ctx.Err())
	}
}

func (r *Records[V]) find(got []V, id int64, err error) (v V, ok bool, _ error) {
	if err != nil {
		return v, false, err
	}
	for i := range got {
		if r.id(&got[i]) == id {
			return got[i], true, nil
		}
	}
	return v, false, nil
}

// next ends a read: its slot goes to the oldest waiting read, if any.
func (r *Records[V]) next() {
	r.mu.Lock()
	if len(r.waiting) == 0 {
		r.running--
		r.mu.Unlock()
		return
	}
	s := r.waiting[0]
	r.waiting[0] = nil
	r.waiting = r.waiting[1:]
	r.mu.Unlock()
	go r.run(s)
}

// run is one shared read. No one request owns it, so it has a deadline
// of its own; each waiter still stops at its own.
func (r *Records[V]) run(s *shared[V]) {
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	s.got, s.err = r.read(ctx, s.ids)
	cancel()
	close(s.done)
	r.next()
}
