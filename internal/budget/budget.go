// Package budget bounds how many reads of one kind run at once against a
// database pool. List reads (an exact count plus an OFFSET page, or a
// search the index cannot answer yet) can take seconds at a million
// rows; point reads take microseconds. Without a bound, a burst of the
// slow kind holds every connection of the pool and the fast kind queues
// behind it; with one, part of the pool is always left to the fast kind.
package budget

import (
	"context"

	"golang.org/x/sync/semaphore"
)

// Budget is a counting semaphore that gives up when the request does.
type Budget struct {
	sem *semaphore.Weighted
	n   int64
}

// New returns a budget of n slots (at least 1).
func New(n int) *Budget {
	slots := int64(max(1, n))
	return &Budget{sem: semaphore.NewWeighted(slots), n: slots}
}

// Acquire takes a slot, waiting until one is free or ctx is done (then
// it returns ctx's error, which the engines map to a 503; so does a ctx
// already done). Waiters take slots in the order they came. Every
// successful Acquire must be followed by Release.
func (b *Budget) Acquire(ctx context.Context) error { return b.sem.Acquire(ctx, 1) }

// Release frees a slot taken by Acquire.
func (b *Budget) Release() { b.sem.Release(1) }

// Cap is the number of slots.
func (b *Budget) Cap() int { return int(b.n) }

// Fill takes every slot, waiting for them, and returns the function that
// gives them all back: a full budget, for tests that check what still
// runs when one kind of read has taken its share.
func (b *Budget) Fill() (release func()) {
	b.sem.Acquire(context.Background(), b.n)
	return func() { b.sem.Release(b.n) }
}
