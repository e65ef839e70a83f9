package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fold"
)

const (
	// maxCatchUp is the most changed records a search applies from the
	// log before answering, under the index's write lock; beyond it a
	// rebuild in the background is cheaper, and lists answer 503
	// (ErrBuilding) until it is done: nothing else answers a search.
	maxCatchUp = 10_000
	// keepLog is how long log rows stay at least: every running instance
	// catches up at least every syncEvery, so only a stopped or
	// partitioned one falls that far behind.
	keepLog = 10 * time.Minute
	// keepChanges is how many versions of the log stay beyond keepLog,
	// so that an instance restarted hours later (an upgrade) catches up
	// from its index file instead of rebuilding; a gap longer than that
	// is past what maxStartCatchUp applies anyway at the largest
	// catalogs the index holds.
	keepChanges = 1_000_000
	// saveEvery is the period of the index file's writes while serving
	// (when the index changed since the last); the file is also written
	// after every build and when the service stops.
	saveEvery = 10 * time.Minute
	// syncEvery is the period of the background catch-up: short, so that
	// a stream of writes with no searches meanwhile never runs past
	// maxCatchUp (which costs a rebuild).
	syncEvery = time.Second
	// pruneEvery is the period of the log's pruning.
	pruneEvery = 30 * time.Second
	// ReadyWait is the longest a request that needs the index waits for
	// it to become ready before it is answered 503 (ErrBuilding). It is
	// under a second so that the whole request, its own work and the
	// 503 included, is answered within one.
	ReadyWait = 900 * time.Millisecond
	// retryEvery spaces out failed builds.
	retryEvery = 5 * time.Second
)

// Live is the index of one kind of record, built from the database in
// the background and kept current from the search log: before a search
// is answered the index is brought up to (at least) the data version
// the request read, so a write by any instance shows in the next
// search. Until the first build is done, and while a rebuild after a
// gap runs, it is not ready: a search waits up to ReadyWait for it and
// then fails with ErrBuilding. Nothing else answers a search.
type Live struct {
	src  catalog.SearchLog
	kind catalog.SearchKind
	log  *slog.Logger

	st      atomic.Pointer[state] // nil until built
	readyMu sync.Mutex
	readyCh chan struct{} // closed while st is set
	started sync.Once
	running atomic.Bool // Start was called

	mu       sync.Mutex // one catch-up, rebuild, freeze or adoption at a time
	building atomic.Bool
	builds   atomic.Int64 // full builds from the database (for Stats)
	failures atomic.Int64 // panics recovered in the index's upkeep (for Stats)
	file     fileState
	wanted   atomic.Bool  // a rebuild was asked for since the last began
	seen     atomic.Int64 // the newest database version the index was asked to reach (for Stats)
	samples  []sample     // (time, version) for pruning
}

type state struct {
	ix      *Index
	version atomic.Int64 // every change up to it is in ix
	// saving is set while a save writes a frozen view of ix; the
	// changes applied to ix since the freeze are then kept in journal,
	// for the index mapped from the file to take (adopt). Both are
	// guarded by Live.mu.
	saving  bool
	journal []change
}

// change is one catch-up's changes.
type change struct {
	docs []Doc
	gone []int64
	hits []catalog.HitsOf
}

// apply applies c to ix.
func (c change) apply(ix *Index) {
	ix.Apply(c.docs, c.gone)
	ix.ApplyHits(c.hits)
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
	return &Live{src: src, kind: kind, log: log, readyCh: make(chan struct{}), file: fileState{stopped: make(chan struct{})}}
}

// ErrBuilding is the answer to a request that needed the index while it
// was not ready for ReadyWait: a 503 the client retries (Retry-After).
var ErrBuilding = catalog.Errorf(catalog.EUNAVAILABLE, "the search index is building; retry shortly")

// Start builds the index in the background, then keeps it current and
// prunes the log until ctx ends. Calls after the first do nothing.
func (l *Live) Start(ctx context.Context) {
	l.started.Do(func() {
		l.running.Store(true)
		go l.run(ctx)
	})
}

// Wait returns once the index started by Start has stopped after its
// context ended, its file written (see UseFile); at once when it was
// never started.
func (l *Live) Wait() {
	if l.running.Load() {
		<-l.file.stopped
	}
}

func (l *Live) run(ctx context.Context) {
	defer func() {
		l.save()
		close(l.file.stopped)
	}()
	if !l.open(ctx) {
		l.rebuild(ctx)
	}
	t := time.NewTicker(syncEvery)
	defer t.Stop()
	lastPrune := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.tick(ctx, &lastPrune)
	}
}

// tick is one round of the run loop: a rebuild when there is no index,
// else a catch-up, a prune and a save when they are due. A panic in it
// is recovered (failed): the process must outlive any fault of the
// index, which can always be built again from the database.
func (l *Live) tick(ctx context.Context, lastPrune *time.Time) {
	defer l.recoverIn("the background loop", nil)
	if l.st.Load() == nil {
		l.rebuild(ctx)
		return
	}
	if v, err := l.src.KindVersion(ctx, l.kind); err == nil {
		l.see(v)
		l.catchUp(ctx, v)
	}
	if time.Since(*lastPrune) >= pruneEvery {
		*lastPrune = time.Now()
		l.prune(ctx)
	}
	if l.due() {
		l.save()
	}
}

// recoverIn, deferred, recovers a panic in the index's upkeep (during
// what): it is logged at ERROR with its stack and counted, and the
// index in use is discarded when it is st or st is nil, so that no
// search is answered from an index left half-changed. Lists then
// answer as before a first build (ErrBuilding after ReadyWait) until
// the run loop's rebuild from the database is done.
func (l *Live) recoverIn(what string, st *state) {
	p := recover()
	if p == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failed(what, p, st)
}

// failed is recoverIn's work, for callers that recover themselves and
// hold l.mu.
func (l *Live) failed(what string, p any, st *state) {
	// Logged before it is counted: whoever sees the count finds the line.
	l.log.Error("search index failed: discarded, rebuilding it from the database",
		"kind", l.kind, "during", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	l.failures.Add(1)
	l.discard(st)
}

// discard drops st (any index when st is nil) if it is still the one
// in use; l.mu is held, so no build swaps in another meanwhile.
func (l *Live) discard(st *state) {
	if st == nil || l.st.Load() == st {
		l.setState(nil)
	}
}

// setState makes st the index searches use (nil: none, not ready) and
// wakes the requests waiting for one.
func (l *Live) setState(st *state) {
	l.readyMu.Lock()
	defer l.readyMu.Unlock()
	old := l.st.Swap(st)
	switch {
	case st != nil && old == nil:
		close(l.readyCh)
	case st == nil && old != nil:
		l.readyCh = make(chan struct{})
	}
}

// WaitReady waits until the index is ready, for at most ReadyWait (or
// until ctx ends): ErrBuilding when it is not ready by then.
func (l *Live) WaitReady(ctx context.Context) error {
	if l.Ready() {
		return nil
	}
	l.readyMu.Lock()
	ch := l.readyCh
	l.readyMu.Unlock()
	t := time.NewTimer(ReadyWait)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		return ErrBuilding
	case <-ctx.Done():
		return catalog.ContextError("search index", ctx.Err())
	}
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
		ix, version, err := l.buildOnce(ctx)
		if err != nil {
			l.log.Warn("search index build failed", "kind", l.kind, "err", err)
		} else {
			st := &state{ix: ix}
			st.version.Store(version)
			l.mu.Lock()
			l.setState(st)
			l.mu.Unlock()
			l.builds.Add(1)
			l.log.Info("search index ready", "kind", l.kind, "records", ix.Len(), "took", time.Since(start).Round(time.Millisecond))
			l.warnLeftOut(ix)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryEvery):
		}
	}
}

// errBuildPanicked is buildOnce's error when the build panicked.
var errBuildPanicked = errors.New("the build panicked")

// buildOnce reads every record from the database into a new index. A
// panic while indexing is recovered (logged, counted) as an error: the
// database read is cancelled and drained, so no goroutine is left
// behind, and the caller retries.
func (l *Live) buildOnce(ctx context.Context) (ix *Index, version int64, err error) {
	ctx, cancel := context.WithCancel(ctx)
	docs := make(chan catalog.SearchDoc, 4096)
	var readErr error
	go func() {
		defer close(docs)
		version, readErr = l.src.SearchDocs(ctx, l.kind, func(d catalog.SearchDoc) {
			select {
			case docs <- d:
			case <-ctx.Done():
			}
		})
	}()
	defer func() {
		if p := recover(); p != nil {
			cancel()
			for range docs { // until the reader has stopped
			}
			l.log.Error("search index build failed", "kind", l.kind, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			l.failures.Add(1)
			ix, err = nil, errBuildPanicked
		}
	}()
	defer cancel()
	ix = New()
	// The database read and the indexing overlap on two cores.
	ix.Build(func() (Doc, bool) {
		d, more := <-docs
		return Doc(d), more
	})
	return ix, version, readErr
}

// errNotReady is catchUp's answer while there is no index.
var errNotReady = errors.New("search index not ready")

// catchUp brings the index to at least version from the log. A gap
// drops the index (lists answer ErrBuilding until it is back) and starts a
// rebuild.
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
	u, err := l.src.SearchChanges(ctx, l.kind, st.version.Load(), maxCatchUp)
	if errors.Is(err, catalog.ErrSearchLogGap) {
		l.log.Info("search index rebuilding: too far behind the log", "kind", l.kind)
		l.setState(nil)
		go l.rebuild(context.WithoutCancel(ctx))
		return nil, errNotReady
	}
	if err != nil {
		return nil, err
	}
	c := changeOf(u)
	if !l.apply(st, c) {
		return nil, errNotReady
	}
	if st.saving {
		st.journal = append(st.journal, c)
	}
	st.version.Store(u.Version)
	return st, nil
}

// apply applies c to st's index, l.mu held. A panic is recovered: st
// is discarded (failed), since its index may be half-changed, and
// apply reports false.
func (l *Live) apply(st *state, c change) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			l.failed("a catch-up", p, st)
			ok = false
		}
	}()
	c.apply(st.ix)
	return true
}

// warnLeftOut tells the operator about the records ix leaves out, if
// any: they are in no list and no search until they are stored under
// ids in range.
func (l *Live) warnLeftOut(ix *Index) {
	n, first := ix.LeftOut()
	if n == 0 {
		return
	}
	l.log.Warn("search index: records left out, their ids are above 2^32-1", "kind", l.kind,
		"records", n, "first_ids", first,
		"fix", "re-import them under ids of at most 4294967295 and delete the old rows; until then no list or search shows them, reading one by its id still works")
}

// prune forgets the log rows that every running instance has had
// keepLog to read and that are more than keepChanges versions old.
func (l *Live) prune(ctx context.Context) {
	st := l.st.Load()
	if st == nil {
		return
	}
	now := time.Now()
	l.samples = append(l.samples, sample{now, st.version.Load()})
	var aged int64 = -1
	for len(l.samples) > 0 && now.Sub(l.samples[0].at) >= keepLog {
		aged = l.samples[0].version
		l.samples = l.samples[1:]
	}
	if through := pruneThrough(aged, st.version.Load()); through > 0 {
		if err := l.src.PruneSearchLog(ctx, l.kind, through); err != nil {
			l.log.Debug("search log prune failed", "kind", l.kind, "err", err)
		}
	}
}

// pruneThrough is the version through which the log may go, given the
// version every running instance had read keepLog ago (aged, -1 when
// none yet) and the current one: keepChanges versions stay however old.
func pruneThrough(aged, current int64) int64 { return min(aged, current-keepChanges) }

// Find answers q from the index once it holds every change up to
// version (the data version the request read), waiting up to ReadyWait
// for the index to be ready (ErrBuilding after that).
func (l *Live) Find(ctx context.Context, version int64, q Query) (Result, error) {
	var r Result
	err := l.read(ctx, version, func(ix *Index) { r = ix.Find(q) })
	return r, err
}

// Facet answers Index.Facet as Find answers Index.Find.
func (l *Live) Facet(ctx context.Context, version int64, field string, q Query) (FacetPage, error) {
	var p FacetPage
	err := l.read(ctx, version, func(ix *Index) { p = ix.Facet(field, q) })
	return p, err
}

// read calls fn with the index once it holds every change up to
// version, waiting up to ReadyWait for the index to be ready
// (ErrBuilding after that).
func (l *Live) read(ctx context.Context, version int64, fn func(*Index)) error {
	l.see(version)
	for {
		if err := l.WaitReady(ctx); err != nil {
			return err
		}
		st, err := l.catchUp(ctx, version)
		if errors.Is(err, errNotReady) {
			continue // dropped since WaitReady: a rebuild runs, wait for it
		}
		if err != nil {
			return err
		}
		if l.readOnce(st, fn) {
			return nil
		}
	}
}

// readOnce calls fn with st's index. A panic is recovered as in apply:
// st is discarded, readOnce reports false, and the caller waits for the
// rebuild.
func (l *Live) readOnce(st *state, fn func(*Index)) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.failed("a search", p, st)
			ok = false
		}
	}()
	fn(st.ix)
	return true
}

// errMoving answers a page whose records kept changing between the
// index and the keyed read of their rows.
var errMoving = catalog.Errorf(catalog.EUNAVAILABLE, "the records of this page keep changing; retry shortly")

// Page is a list request answered from the index, the one read path of
// every list: the ids and the exact total come from the index, then load
// reads exactly those records by key, in the order of ids; doc gives a
// record's id, title, code (a movie's id_code, "" for clips) and group.
// Without filters it is a page of the whole list; a deep page costs the
// same as the first. A record that changed between the index and load
// (its search text or group no longer matches, it is gone, or load found
// other ids) makes it catch up and try again.
func Page[T any](ctx context.Context, l *Live, version int64, q Query,
	load func(ids []int64) ([]T, error), doc func(*T) (id int64, title, code, group string)) (page []T, total int64, err error) {
	for range 3 {
		r, err := l.Find(ctx, version, q)
		if err != nil {
			return nil, 0, err
		}
		if len(r.IDs) == 0 {
			return []T{}, r.Total, nil
		}
		page, err := load(r.IDs)
		if err != nil {
			return nil, 0, err
		}
		if matches(page, r.IDs, r.Terms, q.Group, doc) {
			return page, r.Total, nil
		}
		// A write landed between the index and the rows: catch up to
		// the version now current and search again.
		if version, err = l.src.KindVersion(ctx, l.kind); err != nil {
			return nil, 0, err
		}
	}
	return nil, 0, errMoving
}

// matches reports whether page holds the records ids, in group, each
// matching terms (the terms Find says they matched).
func matches[T any](page []T, ids []int64, terms []string, group *string, doc func(*T) (int64, string, string, string)) bool {
	if len(page) != len(ids) {
		return false
	}
	for i := range page {
		id, title, code, g := doc(&page[i])
		if id != ids[i] || (group != nil && g != *group) {
			return false
		}
		if len(terms) == 0 {
			continue
		}
		// The folded title is the start of the search text, and most
		// searches match it; the rest (the code, the pinyin) is made only
		// when it does not.
		if !catalog.TextMatches(fold.String(title), terms) && !catalog.TextMatches(catalog.SearchText(title, code), terms) {
			return false
		}
	}
	return true
}
