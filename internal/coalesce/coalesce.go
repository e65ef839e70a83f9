// Package coalesce runs calls that wait at the same time together: the
// detail reads that share one keyed read (cache.Records), the keyed
// reads that share one round trip to PostgreSQL. What is paid once per
// run (a statement, a read transaction, a round trip) is then paid once
// for all of them while a server is busy, and not waited for while it is
// idle.
package coalesce

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Group runs calls of run, alone or together.
//
// At most slots runs are under way. A call that finds a slot free runs
// at once, alone, on its caller's goroutine and context, so an idle
// server adds no wait and a request's deadline still cancels its own
// statement. A call that finds every slot busy waits; the next slot to
// come free runs every waiting call, up to max, in arrival order, and a
// call never joins a run already under way: each run starts after its
// calls arrived, so it sees every write committed before them, as a run
// of their own would. Whenever mu is free, either nothing waits or
// every slot is busy: a slot is given up only when nothing waits.
//
// A shared run has a context of its own, so that a request that goes
// away does not cancel the others' work: it ends at the latest of the
// calls' deadlines, or after timeout when one of them has none. Calls
// whose context ended before their run started are left out of it.
type Group[T any] struct {
	run     func(ctx context.Context, calls []T)
	slots   int
	max     int
	timeout time.Duration

	mu      sync.Mutex
	busy    int
	waiting []*call[T]
}

type call[T any] struct {
	ctx  context.Context
	v    T
	done chan struct{}
}

// New returns a Group of slots runs at a time, up to maxCalls calls each,
// over run. run is given the calls in arrival order and must have done
// with each when it returns.
func New[T any](slots, maxCalls int, timeout time.Duration, run func(ctx context.Context, calls []T)) *Group[T] {
	return &Group[T]{run: run, slots: max(slots, 1), max: max(maxCalls, 1), timeout: timeout}
}

// Do hands v to run, alone or with others. It returns nil once run has
// returned with v among its calls, or ctx's error when ctx ended first:
// run may then still be at work on v, so the caller must not read what
// run writes into v.
func (g *Group[T]) Do(ctx context.Context, v T) error {
	g.mu.Lock()
	if g.busy < g.slots {
		g.busy++
		g.mu.Unlock()
		g.run(ctx, []T{v})
		g.release()
		return nil
	}
	c := &call[T]{ctx: ctx, v: v, done: make(chan struct{})}
	g.waiting = append(g.waiting, c)
	g.mu.Unlock()
	select {
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release gives up a slot, or hands it to a goroutine that runs what
// waits until nothing does.
func (g *Group[T]) release() {
	g.mu.Lock()
	if len(g.waiting) == 0 {
		g.busy--
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	go g.drain()
}

func (g *Group[T]) drain() {
	for {
		g.mu.Lock()
		n := min(len(g.waiting), g.max)
		if n == 0 {
			g.busy--
			g.mu.Unlock()
			return
		}
		batch := slices.Clone(g.waiting[:n])
		g.waiting = slices.Delete(g.waiting, 0, n)
		g.mu.Unlock()
		g.runShared(batch)
	}
}

// runShared runs the calls whose context still runs, on a context of
// their own, and lets every call's Do return.
func (g *Group[T]) runShared(batch []*call[T]) {
	live := make([]T, 0, len(batch))
	last, bounded := time.Time{}, true
	for _, c := range batch {
		if c.ctx.Err() != nil {
			continue
		}
		live = append(live, c.v)
		d, ok := c.ctx.Deadline()
		bounded = bounded && ok
		if d.After(last) {
			last = d
		}
	}
	if len(live) > 0 {
		if !bounded {
			last = time.Now().Add(g.timeout)
		}
		ctx, cancel := context.WithDeadline(context.Background(), last)
		g.run(ctx, live)
		cancel()
	}
	for _, c := range batch {
		close(c.done)
	}
}
