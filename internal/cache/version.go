// Package cache makes the hot read paths cheap without bending the
// contract: encoded responses are kept per normalised query and data
// version (responses.go), the version is read from the database for
// every request (batched, never skipped; this file).
package cache

import (
	"context"
	"sync"
	"time"

	"catalog/internal/catalog"
)

// readTimeout bounds a shared version read, which no single request's
// context owns.
const readTimeout = 5 * time.Second

// batchWindow is the least time between the starts of two shared reads.
// A version read costs CPU, not waiting (tens of microseconds on SQLite),
// so back-to-back reads would batch almost nothing and keep a core busy
// under load; holding the next read until the window has passed gathers
// every caller that arrives meanwhile into it. It adds at most this much
// latency, and only while reads are already in flight.
const batchWindow = 250 * time.Microsecond

// Versions reads the store's data version for every request, batching
// concurrent requests into one database read without ever answering
// with a value read before the request arrived.
//
// The guarantee is the one a plain per-request read gives: the value a
// caller gets comes from a read that started after the caller called
// Current, so every write committed before that is counted. A caller
// that arrives while a read is in flight does not take that read's
// result (it may have started too early); it joins the next read, which
// starts after the current one ends (and batchWindow after it began)
// and serves everyone who joined before it started. So reads start at
// most once per batchWindow; a request that finds none in flight and
// none begun within the window (an idle server) reads inline, without
// delay.
type Versions struct {
	read func(context.Context) (int64, error)

	mu        sync.Mutex
	inflight  bool
	next      *round // joined by callers that arrive during a read
	lastStart time.Time
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
		now := time.Now()
		if now.Sub(g.lastStart) >= batchWindow {
			g.lastStart = now
			g.mu.Unlock()
			// No one else waits on this read, so the caller's context
			// may cancel it.
			v, err := g.read(ctx)
			g.finish()
			return v, err
		}
		// A read began moments ago: under load, wait for the next
		// shared one instead of adding a read per request.
		g.next = &round{done: make(chan struct{})}
		go g.runNext()
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
		return 0, catalog.ContextError("data version", ctx.Err())
	}
}

// finish ends a read and, when callers joined meanwhile, starts the read
// they wait for.
func (g *Versions) finish() {
	g.mu.Lock()
	waiting := g.next != nil
	if !waiting {
		g.inflight = false
	}
	g.mu.Unlock()
	if waiting {
		go g.runNext()
	}
}

// runNext runs the read that the joined callers wait for; callers keep
// joining it until it starts.
func (g *Versions) runNext() {
	g.mu.Lock()
	wait := time.Until(g.lastStart.Add(batchWindow))
	g.mu.Unlock()
	if wait > 0 {
		time.Sleep(wait)
	}
	g.mu.Lock()
	r := g.next
	g.next = nil // from here on, arrivals wait for a later read
	g.lastStart = time.Now()
	g.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	r.v, r.err = g.read(ctx)
	cancel()
	close(r.done)
	g.finish()
}
