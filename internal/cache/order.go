package cache

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Stride is the distance between remembered ids: a page starts at most
// Stride-1 rows after a remembered id, so a seek passes over fewer than
// Stride rows, and a million-row list costs 31,250 ids (250 KB).
const Stride = 32

const (
	// buildTimeout bounds one walk over a list's ids.
	buildTimeout = 2 * time.Minute
	// minRebuildGap keeps a stream of writes from turning into a stream
	// of full walks; the OFFSET fallback serves meanwhile.
	minRebuildGap = time.Second
)

// Order remembers every Stride-th id of one list (id descending) as of
// one data version, so that a deep page is a seek ("id <= mark, pass
// over < Stride rows") rather than an OFFSET scan over every row before
// it. It answers only for the exact version it was built at; for any
// other the caller uses its exact fallback while Order rebuilds in the
// background.
type Order struct {
	walk func(ctx context.Context, fn func(id int64)) (int64, error)
	log  *slog.Logger

	cur       atomic.Pointer[marks]
	building  atomic.Bool
	lastStart atomic.Int64 // unix nanoseconds of the last build start

	firstDone chan struct{} // closed when the first build has ended, built or not
	firstOnce sync.Once
}

type marks struct {
	version int64
	total   int64
	ids     []int64 // ids[i] is the id at position i*Stride
}

// NewOrder returns an Order over walk, which calls fn with every id of
// the list, highest first, in one read transaction and returns that
// transaction's data version (catalog.VodStore.VodIDs).
func NewOrder(walk func(ctx context.Context, fn func(id int64)) (int64, error), log *slog.Logger) *Order {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Order{walk: walk, log: log, firstDone: make(chan struct{})}
}

// Locate finds offset in the list at version. It returns the id to seek
// from, the rows to pass over after it and the list's total; ok is false
// when the order is not at version (a rebuild is then started). An
// offset at or past the end gives from 0 and the total.
func (o *Order) Locate(version, offset int64) (from, skip, total int64, ok bool) {
	m := o.cur.Load()
	if m == nil || m.version != version {
		if m == nil || m.version < version {
			o.Refresh()
		}
		return 0, 0, 0, false
	}
	if offset >= m.total {
		return 0, 0, m.total, true
	}
	return m.ids[offset/Stride], offset % Stride, m.total, true
}

// Refresh starts a background rebuild unless one is running.
func (o *Order) Refresh() {
	if !o.building.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer o.building.Store(false)
		if wait := time.Until(time.Unix(0, o.lastStart.Load()).Add(minRebuildGap)); wait > 0 {
			time.Sleep(wait)
		}
		o.lastStart.Store(time.Now().UnixNano())
		defer o.firstOnce.Do(func() { close(o.firstDone) })
		if err := o.build(); err != nil {
			// Debug only: the exact fallback keeps serving, the next
			// request retries, and a store closed under a rebuild (at
			// shutdown) is no news.
			o.log.Debug("id order rebuild failed", "err", err)
		}
	}()
}

// Build walks the list now and installs the result.
func (o *Order) build() error {
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	var ids []int64
	var n int64
	version, err := o.walk(ctx, func(id int64) {
		if n%Stride == 0 {
			ids = append(ids, id)
		}
		n++
	})
	if err != nil {
		return err
	}
	if old := o.cur.Load(); old != nil && old.version > version {
		return nil // a concurrent reader already saw newer data
	}
	o.cur.Store(&marks{version: version, total: n, ids: ids})
	return nil
}

// Ready reports whether the order answers for version.
func (o *Order) Ready(version int64) bool {
	m := o.cur.Load()
	return m != nil && m.version == version
}
