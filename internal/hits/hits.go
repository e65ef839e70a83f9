// Package hits adds up the movies' plays (contract 12) in memory and
// writes them in one batch every few seconds, so that a beacon costs no
// write of its own. A batch adds to the stored counts
// (catalog.HitStore.AddHits), so several instances on one database each
// write their own batches and none is lost.
package hits

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"catalog/internal/catalog"
)

// DefaultEvery is how often the counts are written: well within the 10 s
// that contract 12 lets a count lag.
const DefaultEvery = 5 * time.Second

// writeTimeout bounds one batch's write.
const writeTimeout = 30 * time.Second

// Counter adds up hits until they are written. Each hit counts for the
// UTC day on which Add saw it, so a batch that crosses midnight is
// written as two, oldest first.
type Counter struct {
	store catalog.HitStore
	every time.Duration
	log   *slog.Logger

	mu      sync.Mutex
	pending map[catalog.HitDay]map[int64]int64 // day -> movie -> hits
	wmu     sync.Mutex                         // one write at a time, in day order
}

// Options configure a Counter.
type Options struct {
	Every  time.Duration // between writes (0: DefaultEvery)
	Logger *slog.Logger
}

// New returns a Counter over store; Run writes its batches.
func New(store catalog.HitStore, opts Options) *Counter {
	c := &Counter{store: store, every: opts.Every, log: opts.Logger, pending: map[catalog.HitDay]map[int64]int64{}}
	if c.every <= 0 {
		c.every = DefaultEvery
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c
}

// Add counts one hit of the movie id now.
func (c *Counter) Add(id int64) {
	day := catalog.HitDayOf(time.Now())
	c.mu.Lock()
	counts := c.pending[day]
	if counts == nil {
		counts = map[int64]int64{}
		c.pending[day] = counts
	}
	counts[id]++
	c.mu.Unlock()
}

// Run writes the counts every Every until ctx ends, then once more, so
// that a shutdown keeps what was counted.
func (c *Counter) Run(ctx context.Context) {
	t := time.NewTicker(c.every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.flushLogged(ctx)
		case <-ctx.Done():
			c.flushLogged(context.WithoutCancel(ctx))
			return
		}
	}
}

func (c *Counter) flushLogged(ctx context.Context) {
	if err := c.Flush(ctx); err != nil {
		c.log.Warn("hits: the batch was not written; it is kept for the next", "err", err)
	}
}

// Flush writes every count added so far, one batch per day, oldest
// first. A batch that fails goes back to be written with the next, so
// that no count is lost while the database is away (the counts of a
// movie only grow in memory: at most one entry per movie and day).
func (c *Counter) Flush(ctx context.Context) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.mu.Lock()
	taken := c.pending
	if len(taken) > 0 {
		c.pending = map[catalog.HitDay]map[int64]int64{}
	}
	c.mu.Unlock()
	days := slices.Sorted(maps.Keys(taken))
	for i, day := range days {
		wctx, cancel := context.WithTimeout(ctx, writeTimeout)
		err := c.store.AddHits(wctx, day, batch(taken[day]))
		cancel()
		if err != nil {
			c.giveBack(taken, days[i:])
			return err
		}
	}
	return nil
}

// batch lists a day's counts in id order.
func batch(counts map[int64]int64) []catalog.HitCount {
	out := make([]catalog.HitCount, 0, len(counts))
	for _, id := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, catalog.HitCount{ID: id, N: counts[id]})
	}
	return out
}

// giveBack adds the unwritten days of taken to what was counted since.
func (c *Counter) giveBack(taken map[catalog.HitDay]map[int64]int64, days []catalog.HitDay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, day := range days {
		now := c.pending[day]
		if now == nil {
			c.pending[day] = taken[day]
			continue
		}
		for id, n := range taken[day] {
			now[id] += n
		}
	}
}

// Pending is how many hits are counted and not yet written.
func (c *Counter) Pending() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, counts := range c.pending {
		for _, k := range counts {
			n += k
		}
	}
	return n
}
