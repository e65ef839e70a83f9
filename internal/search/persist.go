package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fold"
)

// fileState is where a Live keeps its index between runs (UseFile).
type fileState struct {
	path     string // "" = no file
	identity string // the database's, read at start
	stopped  chan struct{}

	mu        sync.Mutex
	saved     *state // the index and
	savedAt   int64  // the version last written
	lastWrite time.Time
	loaded    bool // served from the file at start (for Stats)

	// afterSection, when set (by a test), is called after each section
	// of a save's file is written, with its name.
	afterSection func(name string)
}

// UseFile makes the index start from the file at path when it belongs
// to this database and the log still covers what it lacks, and write
// it there after every build, every saveEvery while it changes, and
// when the context given to Start ends (Wait waits for that). Call it
// before Start.
func (l *Live) UseFile(path string) { l.file.path = path }

// startCatchUp is the most changes applied from the log to an index
// read from its file before it serves, beyond which a rebuild is
// quicker: a tenth of the catalog (a build costs about as much as
// applying a tenth of its records), and never fewer than maxCatchUp.
func startCatchUp(records int) int { return max(maxCatchUp, records/10) }

// open serves from the index file when it is usable, caught up from
// the log; false means a build from the database is needed. Every
// reason not to use the file is logged (a warning when the file is
// damaged or belongs elsewhere), never fatal.
func (l *Live) open(ctx context.Context) (ok bool) {
	if l.file.path == "" {
		return false
	}
	start := time.Now()
	log := l.log.With("kind", l.kind, "file", l.file.path)
	// A file that makes the index panic as it is read or caught up is
	// set aside like a damaged one: the next start must not meet it
	// again (a crash loop).
	defer func() {
		if p := recover(); p != nil {
			l.mu.Lock()
			l.failed("loading its file", p, nil)
			l.mu.Unlock()
			l.setAside(log)
			ok = false
		}
	}()
	ix, h, err := OpenFile(l.file.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		log.Info("search index file not found: building from the database")
		return false
	case err != nil:
		log.Warn("search index file not used: building from the database", "err", err)
		if IsBadFile(err) {
			l.setAside(log)
		}
		return false
	}
	why, err := l.usable(ctx, h)
	if err != nil {
		log.Warn("search index file not checked: building from the database", "err", err)
		return false
	}
	if why != "" {
		log.Warn("search index file not used: building from the database", "reason", why)
		return false
	}
	u, err := l.src.SearchChanges(ctx, l.kind, h.Version, startCatchUp(ix.Len()))
	if errors.Is(err, catalog.ErrSearchLogGap) {
		log.Info("search index file too far behind the search log: building from the database", "version", h.Version)
		return false
	}
	if err != nil {
		log.Warn("search index file not caught up: building from the database", "err", err)
		return false
	}
	changeOf(u).apply(ix)
	st := &state{ix: ix}
	st.version.Store(u.Version)
	l.mu.Lock()
	l.setState(st)
	l.mu.Unlock()
	l.file.mu.Lock()
	l.file.saved, l.file.savedAt, l.file.lastWrite, l.file.loaded = st, h.Version, time.Now(), true
	l.file.mu.Unlock()
	log.Info("search index ready from its file", "records", ix.Len(), "caught_up", len(u.Docs)+len(u.Gone)+len(u.Hits),
		"took", time.Since(start).Round(time.Millisecond))
	l.warnLeftOut(ix)
	return true
}

// setAside renames the index file to its name with ".bad" added
// (replacing an earlier one), for the operator to look at, so that it
// is never read again; the next save writes a new file.
func (l *Live) setAside(log *slog.Logger) {
	bad := l.file.path + ".bad"
	if err := os.Rename(l.file.path, bad); err != nil {
		log.Error("search index file could not be set aside", "err", err)
		return
	}
	log.Warn("search index file set aside: it is rebuilt from the database", "set_aside_as", bad)
}

// usable says why the file's header does not fit this index and its
// database ("" when it does).
func (l *Live) usable(ctx context.Context, h FileHeader) (string, error) {
	id, err := l.identity(ctx)
	if err != nil {
		return "", err
	}
	if h.Kind != int(l.kind) {
		return "the file holds another kind of record", nil
	}
	if f := max(h.Fold, 1); f != fold.Version { // 0: written before the fold was recorded, fold 1
		return fmt.Sprintf("the file's search text is of fold version %d, this program folds with version %d", f, fold.Version), nil
	}
	if h.Identity != id {
		return "the file belongs to another database", nil
	}
	v, err := l.src.KindVersion(ctx, l.kind)
	if err != nil {
		return "", err
	}
	if h.Version > v {
		return "the file is newer than the database (restored from a backup?)", nil
	}
	return "", nil
}

// identity is the database's identity, read once.
func (l *Live) identity(ctx context.Context) (string, error) {
	l.file.mu.Lock()
	defer l.file.mu.Unlock()
	if l.file.identity == "" {
		id, err := l.src.Identity(ctx)
		if err != nil {
			return "", err
		}
		l.file.identity = id
	}
	return l.file.identity, nil
}

// changeOf is u as the index applies it.
func changeOf(u catalog.SearchUpdate) change {
	docs := make([]Doc, len(u.Docs))
	for i, d := range u.Docs {
		docs[i] = Doc(d)
	}
	return change{docs: docs, gone: u.Gone, hits: u.Hits}
}

// due reports whether the file should be written: a build not written
// yet, or changes (save skips an unchanged index) saveEvery after the
// last write.
func (l *Live) due() bool {
	f := &l.file
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.path != "" && (f.saved != l.st.Load() || time.Since(f.lastWrite) >= saveEvery)
}

// save writes the index to its file when it changed since the last
// write. l.mu is held only to freeze a view of the index (freeze.go):
// the file is written from the view while catch-ups and searches go
// on, and the index mapped from the file then takes over (adopt). Only
// the run goroutine calls it, so one save runs at a time.
func (l *Live) save() {
	if l.file.path == "" {
		return
	}
	defer l.recoverIn("a save", nil)
	id, err := l.identity(context.Background())
	if err != nil {
		l.log.Warn("search index file not written", "kind", l.kind, "err", err)
		return
	}
	st, view := l.freeze()
	if st == nil {
		return
	}
	v := view.version.Load()
	start := time.Now()
	err = view.ix.writeFile(l.file.path, FileHeader{Kind: int(l.kind), Version: v, Identity: id, Fold: fold.Version}, l.file.afterSection)
	// The view reads the file st.ix maps, if any, which is unmapped
	// once st.ix is unreachable.
	runtime.KeepAlive(st.ix)
	if err == nil {
		st = l.adopt(st)
	} else {
		l.thaw(st)
	}
	l.file.mu.Lock()
	l.file.lastWrite = time.Now()
	if err == nil {
		l.file.saved, l.file.savedAt = st, v
	}
	l.file.mu.Unlock()
	if err != nil {
		l.log.Warn("search index file not written", "kind", l.kind, "file", l.file.path, "err", err)
		return
	}
	size := int64(-1)
	if fi, err := os.Stat(l.file.path); err == nil {
		size = fi.Size()
	}
	l.log.Info("search index file written", "kind", l.kind, "version", v, "bytes", size, "took", time.Since(start).Round(time.Millisecond))
}

// freeze returns the current state, marked saving, and a frozen view
// of its index with the version it holds; nil when there is no index
// or the file already holds it.
func (l *Live) freeze() (*state, *state) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.st.Load()
	if st == nil {
		return nil, nil
	}
	v := st.version.Load()
	l.file.mu.Lock()
	same := l.file.saved == st && l.file.savedAt == v
	l.file.mu.Unlock()
	if same {
		return nil, nil
	}
	view := &state{ix: st.ix.freeze()}
	view.version.Store(v)
	st.saving = true
	return st, view
}

// thaw ends st's save without adopting a file.
func (l *Live) thaw(st *state) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st.ix.thaw()
	st.saving, st.journal = false, nil
}

// adoptRounds is how many rounds of changes adopt applies outside l.mu
// before it applies the rest under it.
const adoptRounds = 4

// adopt replaces st, whose frozen view was just written to the file,
// with the index mapped from that file, brought up to st by the
// changes st took since the freeze (its journal), so that the heap
// holds only what changes after it, as after a restart. The changes
// are applied outside l.mu, round after round, until none or few are
// left, which are applied under it with the swap; searches under way
// finish on st. st stays, thawed, when the file does not open or st
// is no longer the index (a rebuild replaced it).
func (l *Live) adopt(st *state) *state {
	ix, _, err := OpenFile(l.file.path)
	if err != nil {
		l.log.Warn("search index file written but not mapped", "kind", l.kind, "file", l.file.path, "err", err)
		l.thaw(st)
		return st
	}
	applied := 0
	for round := 0; ; round++ {
		rest, adopted, done := l.adoptRound(st, ix, applied, round)
		if done {
			return adopted
		}
		for _, c := range rest {
			c.apply(ix)
		}
		applied += len(rest)
	}
}

// adoptRound is one round of adopt under l.mu: the changes st took
// that ix still lacks, or, in the last round, ix with them applied and
// swapped in (adopted) or st thawed when it is no longer the index.
func (l *Live) adoptRound(st *state, ix *Index, applied, round int) (rest []change, adopted *state, done bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.st.Load() != st {
		st.ix.thaw()
		st.saving, st.journal = false, nil
		return nil, st, true
	}
	rest = st.journal[applied:]
	if len(rest) > 0 && round < adoptRounds {
		return rest, nil, false
	}
	for _, c := range rest {
		c.apply(ix)
	}
	mapped := &state{ix: ix}
	mapped.version.Store(st.version.Load())
	st.saving, st.journal = false, nil
	l.setState(mapped)
	return nil, mapped, true
}
