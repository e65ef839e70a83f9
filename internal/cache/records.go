package cache

import (
	"context"
	"runtime"

	"catalog/internal/catalog"
	"catalog/internal/coalesce"
)

// maxShared bounds the ids of one shared read: the engines' keyed reads
// pad an IN list to a multiple of ten, so this keeps their statements
// to a handful of texts.
const maxShared = 60

// Records reads one record at a time for the detail endpoints, in keyed
// reads that concurrent requests share (coalesce.Group). A keyed read
// of n ids costs far less than n reads of one, each of which pays the
// statement, the connection and the read transaction again
// (BenchmarkKeyedReadSizes in internal/sqlite). One read runs per core;
// a request that finds none free joins the next read.
type Records[V any] struct {
	read  func(ctx context.Context, ids []int64) ([]V, error)
	id    func(*V) int64
	group *coalesce.Group[*wanted[V]]
}

// wanted is one request's record, filled in by the read it joined.
type wanted[V any] struct {
	id  int64
	v   V
	ok  bool
	err error
}

// NewRecords returns Records over read, the store's keyed read (the
// records of ids that exist, in any order), with id naming a record's
// id.
func NewRecords[V any](read func(ctx context.Context, ids []int64) ([]V, error), id func(*V) int64) *Records[V] {
	r := &Records[V]{read: read, id: id}
	r.group = coalesce.New(runtime.GOMAXPROCS(0), maxShared, readTimeout, r.readShared)
	return r
}

// Get returns the record with the given id; ok is false when there is
// none. An error is the read's, or ctx's when it ended first.
func (r *Records[V]) Get(ctx context.Context, id int64) (v V, ok bool, err error) {
	w := &wanted[V]{id: id}
	if err := r.group.Do(ctx, w); err != nil {
		return v, false, catalog.ContextError("record", err)
	}
	return w.v, w.ok, w.err
}

// readShared reads the records of every request in one keyed read.
func (r *Records[V]) readShared(ctx context.Context, want []*wanted[V]) {
	ids := make([]int64, len(want))
	for i, w := range want {
		ids[i] = w.id
	}
	got, err := r.read(ctx, ids)
	for _, w := range want {
		if w.err = err; err != nil {
			continue
		}
		for i := range got {
			if r.id(&got[i]) == w.id {
				w.v, w.ok = got[i], true
				break
			}
		}
	}
}
