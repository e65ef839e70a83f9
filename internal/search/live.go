package search

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"catalog/internal/catalog"
)

const (
	// maxCatchUp is the most changed records a search applies from the
	// log before answering (about 60 µs each, under the index's write
	// lock); beyond it a rebuild (seconds, in the background) is cheaper,
	// and the database answers meanwhile.
	maxCatchUp = 10_000
	// keepLog is how long log rows stay: an instance more than this far
	// behind rebuilds. Every instance catches up at least every
	// syncEvery, so only a stopped or partitioned one falls that far.
	keepLog = 10 * time.Minute
	// syncEvery is the period of the background catch-up and pruning.
	syncEvery = 30 * time.Second
	// retryEvery spaces out failed builds.
	retryEvery = 5 * time.Second
)

// Live is the index of one kind of record, built from the database in
// the background and kept current from the search log: before a search
// is answered the index is brought up to (at least) the data version
// the request read, so a write by any instance shows in the next
// search. Until the first build is done, and while a rebuild after a
// gap runs, Search reports ok false and the caller asks the database.
type Live struct {
	src  catalog.SearchLog
	kind catalog.SearchKind
	log  *slog.Logger

	st atomic.Pointer[state] // nil until built

	mu       sync.Mutex // one catch-up or rebuild at a time
	building atomic.Bool
	wanted   atomic.Bool  // a rebuild was asked for since the last began
	seen     atomic.Int64 // the newest database version the index was asked to reach (for Stats)
	samples  []sample     // (time, version) for pruning
}

type state struct {
	ix      *Index
	version atomic.Int64 // every change up to it is in ix
}

type sample struct {
	at      time.Time
	version int64
}

// NewLive returns the index of kind over src; Start builds it.
func NewLive(src catalog.SearchLog, kind catalog.SearchKind, log *slog.Logger) *Live {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Live{src: src, kind: kind, log: log}
}

// Start builds the index in the background, then keeps it current and
// prunes the log until ctx ends.
func (l *Live) Start(ctx context.Context) {
	go func() {
		l.rebuild(ctx)
		t := time.NewTicker(syncEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if l.st.Load() == nil {
				l.rebuild(ctx)
				continue
			}
			if v, err := l.src.KindVersion(ctx, l.kind); err == nil {
				l.see(v)
				l.catchUp(ctx, v)
			}
			l.prune(ctx)
		}
	}()
}

// see records a database version the index has been asked to reach.
func (l *Live) see(v int64) {
	for {
		old := l.seen.Load()
		if v <= old || l.seen.CompareAndSwap(old, v) {
			return
		}
	}
}

// Ready reports whether searches are answered from the index.
func (l *Live) Ready() bool { return l.st.Load() != nil }

// Settled reports whether the index is ready and no build runs: its
// memory is then what it will hold until the next write.
func (l *Live) Settled() bool { return l.Ready() && !l.building.Load() }

// buildSlot lets one index build run at a time in the process: a build
// makes garbage in proportion to the catalog (every title read from the
// database), and two at once would double the peak memory for little
// gain in time (each already keeps two cores busy: the database read
// and the indexing overlap).
var buildSlot = make(chan struct{}, 1)

// rebuild replaces the index with one read from the database, retrying
// until it succeeds or ctx ends. Searches keep using the old one (or the
// database) meanwhile. A call while a build runs makes that build run
// once more when it ends, so a request (after a gap) is never lost.
func (l *Live) rebuild(ctx context.Context) {
	l.wanted.Store(true)
	for l.building.CompareAndSwap(false, true) {
		l.wanted.Store(false)
		l.build(ctx)
		l.building.Store(false)
		if !l.wanted.Load() || ctx.Err() != nil {
			return
		}
	}
}

// build is one rebuild, in the process's build slot.
func (l *Live) build(ctx context.Context) {
	select {
	case buildSlot <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() {
		<-buildSlot
		// Hand the build's garbage back to the system now, rather than
		// keep it as heap headroom for the life of the process.
		debug.FreeOSMemory()
	}()
	for ctx.Err() == nil {
		start := time.Now()
		ix := New()
		docs := make(chan catalog.SearchDoc, 4096)
		var version int64
		var err error
		go func() {
			defer close(docs)
			version, err = l.src.SearchDocs(ctx, l.kind, func(d catalog.SearchDoc) { docs <- d })
		}()
		// The database read and the indexing overlap on two cores.
		ok := ix.Build(func() (Doc, bool) {
			d, more := <-docs
			return Doc(d), more
		})
		for range docs { // drain after a refusal
		}
		switch {
		case err != nil:
			l.log.Warn("search index build failed", "kind", l.kind, "err", err)
		case !ok:
			l.log.Warn("search index not used: an id is above 2^32-1", "kind", l.kind)
			return
		default:
			st := &state{ix: ix}
			st.version.Store(version)
			l.mu.Lock()
			l.st.Store(st)
			l.mu.Unlock()
			l.log.Info("search index ready", "kind", l.kind, "records", ix.Len(), "took", time.Since(start).Round(time.Millisecond))
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryEvery):
		}
	}
}

// errNotReady makes Search fall back to the database.
var errNotReady = errors.New("search index not ready")

// catchUp brings the index to at least version from the log. A gap
// drops the index (the database answers) and starts a rebuild.
func (l *Live) catchUp(ctx context.Context, version int64) (*state, error) {
	st := l.st.Load()
	if st == nil {
		return nil, errNotReady
	}
	if st.version.Load() >= version {
		return st, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if st = l.st.Load(); st == nil {
		return nil, errNotReady
	}
	if st.version.Load() >= version {
		return st, nil // another caller caught up meanwhile
	}
	docs, gone, v, err := l.src.SearchChanges(ctx, l.kind, st.version.Load(), maxCatchUp)
	if errors.Is(err, catalog.ErrSearchLogGap) {
		l.log.Info("search index rebuilding: too far behind the log", "kind", l.kind)
		l.st.Store(nil)
		go l.rebuild(context.WithoutCancel(ctx))
		return nil, errNotReady
	}
	if err != nil {
		return nil, err
	}
	changed := make([]Doc, len(docs))
	for i, d := range docs {
		changed[i] = Doc(d)
	}
	if !st.ix.Apply(changed, gone) {
		l.log.Warn("search index not used: an id is above 2^32-1", "kind", l.kind)
		l.st.Store(nil)
		return nil, errNotReady
	}
	st.version.Store(v)
	return st, nil
}

// prune forgets the log rows every instance has had keepLog to read.
func (l *Live) prune(ctx context.Context) {
	st := l.st.Load()
	if st == nil {
		return
	}
	now := time.Now()
	l.samples = append(l.samples, sample{now, st.version.Load()})
	var through int64 = -1
	for len(l.samples) > 0 && now.Sub(l.samples[0].at) >= keepLog {
		through = l.samples[0].version
		l.samples = l.samples[1:]
	}
	if through > 0 {
		if err := l.src.PruneSearchLog(ctx, l.kind, through); err != nil {
			l.log.Debug("search log prune failed", "kind", l.kind, "err", err)
		}
	}
}

// Search answers from the index once it holds every change up to
// version (the data version the request read). ok is false when the
// index is not ready: the caller asks the database.
func (l *Live) Search(ctx context.Context, version int64, terms []string, group *string, offset, limit int64) (Result, bool, error) {
	l.see(version)
	st, err := l.catchUp(ctx, version)
	if errors.Is(err, errNotReady) {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, false, err
	}
	return st.ix.Search(terms, group, offset, limit), true, nil
}

// Page is a search answered from the index with its records loaded by
// load (ids highest first); doc gives a record's id, title and group.
// Without terms it is a page of the whole list (or of one group): the
// index's id set is an id order kept current from the log, so a deep
// page costs the same as the first whatever the write rate. A record
// that changed between the index and load (it no longer matches, is
// gone, or load found other ids) makes it catch up and try again; ok is
// false when the index is not ready or the records keep moving, and the
// caller asks the database.
func Page[T any](ctx context.Context, l *Live, version int64, terms []string, group *string, offset, limit int64,
	load func(ids []int64) ([]T, error), doc func(*T) (id int64, title, group string)) (page []T, total int64, ok bool, err error) {
	if l == nil {
		return nil, 0, false, nil
	}
	for range 3 {
		r, ok, err := l.Search(ctx, version, terms, group, offset, limit)
		if !ok || err != nil {
			return nil, 0, ok, err
		}
		if len(r.IDs) == 0 {
			return []T{}, r.Total, true, nil
		}
		page, err := load(r.IDs)
		if err != nil {
			return nil, 0, false, err
		}
		if matches(page, r.IDs, terms, group, doc) {
			return page, r.Total, true, nil
		}
		// A write landed between the index and the rows: catch up to
		// the version now current and search again.
		if version, err = l.src.KindVersion(ctx, l.kind); err != nil {
			return nil, 0, false, err
		}
	}
	return nil, 0, false, nil
}

func matches[T any](page []T, ids []int64, terms []string, group *string, doc func(*T) (int64, string, string)) bool {
	if len(page) != len(ids) {
		return false
	}
	for i := range page {
		id, title, g := doc(&page[i])
		if id != ids[i] || (group != nil && g != *group) {
			return false
		}
		if len(terms) == 0 {
			continue // a list page: no title to check
		}
		fold := catalog.Fold(title)
		for _, t := range terms {
			if !strings.Contains(fold, t) {
				return false
			}
		}
	}
	return true
}
