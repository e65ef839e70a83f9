// Package budget bounds how many reads of one kind run at once against a
// database: the whole-table streams, which hold a connection of their
// own for as long as they read (see Streams), so that requests never
// queue behind them.
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
