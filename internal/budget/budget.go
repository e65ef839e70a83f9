// Package budget bounds how many reads of one kind run at once against a
// database pool. List reads (an exact count plus an OFFSET page, or a
// search the index cannot answer yet) can take seconds at a million
// rows; point reads and keyset seeks take microseconds. Without a bound,
// a burst of the slow kind holds every connection of the pool and the
// fast kind queues behind it (issue 11 measured 13 req/s and a 9 s p99
// for deep pages that way). With it, part of the pool is always left to
// the fast kind.
package budget

import "context"

// Budget is a counting semaphore that gives up when the request does.
type Budget struct{ slots chan struct{} }

// New returns a budget of n slots (at least 1).
func New(n int) *Budget { return &Budget{slots: make(chan struct{}, max(1, n))} }

// Acquire takes a slot, waiting until one is free or ctx is done (then
// it returns ctx's error, which the engines map to a 503). Every
// successful Acquire must be followed by Release.
func (b *Budget) Acquire(ctx context.Context) error {
	select {
	case b.slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case b.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release frees a slot taken by Acquire.
func (b *Budget) Release() { <-b.slots }

// Cap is the number of slots.
func (b *Budget) Cap() int { return cap(b.slots) }

// Fill takes every slot, waiting for each, and returns the function that
// gives them all back: a full budget, for tests that check what still
// runs when one kind of read has taken its share.
func (b *Budget) Fill() (release func()) {
	for range cap(b.slots) {
		b.slots <- struct{}{}
	}
	return func() {
		for range cap(b.slots) {
			<-b.slots
		}
	}
}
