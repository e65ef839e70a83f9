// Package cache makes the hot read paths cheap without bending the
// contract: encoded responses are kept per normalised query and data
// version, the version is read from the database for every request
// (batched, never skipped), and deep pages start from remembered ids
// instead of an OFFSET scan.
package cache

import (
	"context"
	"sync"
	"time"
)

// readTimeout bounds a shared version read, which no single request's
// context owns.
const readTimeout = 5 * time.Second

// Versions reads the store's data version for every request, batching
// concurrent requests into one database read without ever answering
// with a value read before the request arrived.
//
// The guarantee is the one a plain per-request read gives: the value a
// caller gets comes from a read that started after the caller called
// Current, so every write committed before that is counted. A caller
// that arrives while a read is in flight does not take that read's
// result (it may have started too early); it waits for the next read,
// which starts when the current one ends and serves everyone who
// arrived in between. Under load that is one database read per read
// duration instead of one per request; an idle server reads inline.
type Versions struct {
	read func(context.Context) (int64, error)

	mu       sync.Mutex
	inflight bool
	next     *round // joined by callers that arrive during a read
}

type round struct {
	done chan struct{}
	v    int64
	err  error
}

// NewVersions returns a Versions over read (typically Store.DataVersion).
func NewVersions(read func(context.Context) (int64, error)) *Versions {
	return &Versions{read: read}
}

// Current returns the data version as of some moment after the call
// began.
func (g *Versions) Current(ctx context.Context) (int64, error) {
	g.mu.Lock()
	if !g.inflight {
		g.inflight = true
		g.mu.Unlock()
		// No one else waits on this read, so the caller's context
		// may cancel it.
		v, err := g.read(ctx)
		g.finish()
		return v, err
	}
	r := g.next
	if r == nil {
		r = &round{done: make(chan struct{})}
		g.next = r
	}
	g.mu.Unlock()
	select {
	case <-r.done:
		return r.v, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// finish ends a read and starts the one that callers arrived for
// meanwhile, if any.
func (g *Versions) finish() {
	g.mu.Lock()
	r := g.next
	g.next = nil
	if r == nil {
		g.inflight = false
	}
	g.mu.Unlock()
	if r != nil {
		go g.run(r)
	}
}

func (g *Versions) run(r *round) {
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	r.v, r.err = g.read(ctx)
	cancel()
	close(r.done)
	g.finish()
}
