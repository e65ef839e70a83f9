package collect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
)

// Runner defaults.
const (
	// DefaultCheckEvery is how often a Runner looks for due sources.
	DefaultCheckEvery = time.Minute
	// DefaultRunDeadline bounds one run of a source (--collect-deadline):
	// a slow source cannot hold a run slot for longer.
	DefaultRunDeadline = time.Hour
	// MaxRunsAtOnce is how many sources one instance collects from at
	// once, so that one slow source cannot hold the others.
	MaxRunsAtOnce = 2
	// maxWaiting bounds the runs asked for and not started yet.
	maxWaiting = 16
)

// ErrCancelled is why a run that an administrator cancelled stopped.
var ErrCancelled = errors.New("cancelled by an administrator")

// RunnerStore is what a Runner reads sources from and writes to.
type RunnerStore interface {
	Store
	ListSources(ctx context.Context) ([]catalog.Source, error)
	SourceByName(ctx context.Context, name string) (catalog.Source, error)
}

// RunnerConfig configures a Runner.
type RunnerConfig struct {
	Store RunnerStore
	// Lock, when set, is held around every run of a source, so that
	// instances sharing a database never run the same source at once; a
	// run that finds it taken is skipped (the instance holding it runs
	// that source).
	Lock   func(ctx context.Context, source string) (unlock func(), ok bool, err error)
	Limits Limits
	// Fetch is how pages are fetched: AllowPrivate for
	// --fetch-allow-private (contract 13).
	Fetch  fetchguard.Options
	Logger *slog.Logger
	// Observe, when set, hears of every finished run (metrics).
	Observe func(catalog.SourceRun)
	// CheckEvery is how often due sources are looked for; 0 means
	// DefaultCheckEvery.
	CheckEvery time.Duration
	// RunDeadline bounds one run; 0 means DefaultRunDeadline. A run
	// past it stops at its page, with what it wrote kept.
	RunDeadline time.Duration
	// Interval is the least time between two page requests to a host
	// (Options.Interval) for the sources without one of their own
	// (catalog.SourceSettings.Interval); the runs share one Hosts, so
	// that sources on one host are asked one request at a time.
	Interval time.Duration
	// Version names the program in every request's User-Agent.
	Version string
}

// Runner runs serve's collections in the background: every source
// whose --every is due, and the runs the console asks for. A source
// runs one run at a time, at most MaxRunsAtOnce sources run at once,
// and each run stops at its deadline or when an administrator cancels
// it.
type Runner struct {
	cfg   RunnerConfig
	wake  chan struct{}
	hosts Hosts // shared by the runs

	mu      sync.Mutex
	running map[string]*running // by source
	waiting []string            // runs asked for, oldest first
}

// running is a run in progress.
type running struct {
	cur    Current
	cancel context.CancelCauseFunc
}

// Current is a run in progress.
type Current struct {
	Source   string
	Started  time.Time
	Progress Progress
}

// NewRunner returns a Runner; Run starts it.
func NewRunner(cfg RunnerConfig) *Runner {
	if cfg.CheckEvery <= 0 {
		cfg.CheckEvery = DefaultCheckEvery
	}
	if cfg.RunDeadline <= 0 {
		cfg.RunDeadline = DefaultRunDeadline
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{cfg: cfg, wake: make(chan struct{}, 1), running: make(map[string]*running)}
}

// Request asks for a run of the source name as soon as a run slot is
// free. It returns false when that source is already waiting or
// running, or too many runs wait.
func (r *Runner) Request(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running[name] != nil || slices.Contains(r.waiting, name) || len(r.waiting) >= maxWaiting {
		return false
	}
	r.waiting = append(r.waiting, name)
	r.poke()
	return true
}

// Cancel stops the run of name in progress (it ends at its page, with
// what it wrote kept, recorded as cancelled) or drops it from the runs
// waiting. It returns false when the source neither runs nor waits.
func (r *Runner) Cancel(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if run := r.running[name]; run != nil {
		run.cancel(ErrCancelled)
		return true
	}
	if i := slices.Index(r.waiting, name); i >= 0 {
		r.waiting = slices.Delete(r.waiting, i, i+1)
		return true
	}
	return false
}

// AllowsPrivate reports whether the runs may reach private addresses
// (--fetch-allow-private), for the console's check of a new source.
func (r *Runner) AllowsPrivate() bool { return r.cfg.Fetch.AllowPrivate }

// Running returns the runs in progress, by source name.
func (r *Runner) Running() []Current {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Current, 0, len(r.running))
	for _, run := range r.running {
		out = append(out, run.cur)
	}
	slices.SortFunc(out, func(a, b Current) int { return strings.Compare(a.Source, b.Source) })
	return out
}

// Waiting returns the sources whose runs were asked for and have not
// started, oldest first.
func (r *Runner) Waiting() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.waiting)
}

// poke wakes Run; r.mu is held.
func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run works until ctx is done: runs asked for first, then due sources
// (looked for every CheckEvery), each in a free slot. When ctx ends,
// the runs in progress stop at their page, are recorded, and Run
// returns after them.
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	tick := time.NewTicker(r.cfg.CheckEvery)
	defer tick.Stop()
	due := true
	for {
		r.startWaiting(ctx, &wg)
		if due {
			r.startDue(ctx, &wg)
			due = false
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
			// A slot may have come free: the due sources that found
			// none at the last check run now, one after another, not
			// at the next check.
			due = true
		case <-tick.C:
			due = true
		}
	}
}

// free reports whether a run slot is free; r.mu is held.
func (r *Runner) free() bool { return len(r.running) < MaxRunsAtOnce }

// startWaiting starts the runs asked for while slots are free. A
// source that is running stays waiting for its run to end.
func (r *Runner) startWaiting(ctx context.Context, wg *sync.WaitGroup) {
	for ctx.Err() == nil {
		r.mu.Lock()
		i := slices.IndexFunc(r.waiting, func(name string) bool { return r.running[name] == nil })
		if !r.free() || i < 0 {
			r.mu.Unlock()
			return
		}
		name := r.waiting[i]
		r.waiting = slices.Delete(r.waiting, i, i+1)
		r.mu.Unlock()
		src, err := r.cfg.Store.SourceByName(ctx, name)
		if err != nil {
			r.cfg.Logger.Warn("collect: source not found", "source", name, "err", err)
			continue
		}
		r.start(ctx, wg, src)
	}
}

// startDue starts the due sources that are not running while slots
// are free; the others are found due again at the next check.
func (r *Runner) startDue(ctx context.Context, wg *sync.WaitGroup) {
	sources, err := r.cfg.Store.ListSources(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Logger.Warn("collect: cannot list sources", "err", err)
		}
		return
	}
	now := time.Now()
	for _, src := range sources {
		if ctx.Err() != nil || !src.Due(now) {
			continue
		}
		r.mu.Lock()
		busy, full := r.running[src.Name] != nil, !r.free()
		r.mu.Unlock()
		if full {
			return
		}
		if busy {
			continue
		}
		// The list may be older than a run of src that ended since;
		// a run is recorded before it leaves r.running, so what the
		// store says now is current.
		if src, err = r.cfg.Store.SourceByName(ctx, src.Name); err == nil && src.Due(now) {
			r.start(ctx, wg, src)
		}
	}
}

// start takes a slot for src and runs it on its own goroutine.
func (r *Runner) start(ctx context.Context, wg *sync.WaitGroup, src catalog.Source) {
	runCtx, cancel := context.WithCancelCause(ctx)
	r.mu.Lock()
	r.running[src.Name] = &running{cur: Current{Source: src.Name, Started: time.Now()}, cancel: cancel}
	r.mu.Unlock()
	wg.Go(func() {
		run, ran, logRun := r.runOne(runCtx, src)
		cancel(nil)
		r.mu.Lock()
		delete(r.running, src.Name)
		r.poke() // a slot is free
		r.mu.Unlock()
		// Heard once the source may run again, so that whoever hears it
		// can ask for the next run; and before the run's log line, so
		// that a reader of the log finds the run counted.
		if ran && r.cfg.Observe != nil {
			r.cfg.Observe(run)
		}
		logRun()
	})
}

// runOne runs src under its lock and deadline, publishing its progress;
// ran is false when another instance held the lock. logRun writes the
// run's log line.
func (r *Runner) runOne(ctx context.Context, src catalog.Source) (run catalog.SourceRun, ran bool, logRun func()) {
	if r.cfg.Lock != nil {
		unlock, ok, err := r.cfg.Lock(ctx, src.Name)
		if err != nil || !ok {
			r.cfg.Logger.Info("collect: another instance is collecting this source; skipped", "source", src.Name, "err", err)
			return run, false, func() {}
		}
		defer unlock()
	}
	ctx, cancel := context.WithTimeoutCause(ctx, r.cfg.RunDeadline,
		fmt.Errorf("the run passed its deadline of %s (--collect-deadline)", r.cfg.RunDeadline))
	defer cancel()
	run, sum, err := Run(ctx, r.cfg.Store, r.options(src))
	log := r.cfg.Logger.With("source", src.Name, "pages", run.Pages, "read", run.Read, "written", run.Written, "unchanged", run.Unchanged, "rejected", run.Rejected, "unbound", run.Unbound)
	if sum.Noted > 0 {
		log = log.With("written_with_a_change", sum.Noted, "first_change", sum.Notes[0].Message)
	}
	return run, true, func() {
		if err != nil {
			log.Warn("collect: run stopped", "err", err)
		} else {
			log.Info("collect: run finished")
		}
	}
}

// options are the Options of a run of src: its own interval when it
// has one, else the instance's; the runs share one Hosts.
func (r *Runner) options(src catalog.Source) Options {
	interval := r.cfg.Interval
	if src.Interval > 0 {
		interval = src.Interval
	}
	return Options{Source: src.Name, URL: src.URL, Hours: src.RunHours(), Limits: r.cfg.Limits, Fetch: r.cfg.Fetch,
		Interval: interval, Hosts: &r.hosts, Version: r.cfg.Version, Synonyms: src.Synonyms, Gone: src.Gone,
		Progress: func(p Progress) {
			r.mu.Lock()
			if run := r.running[src.Name]; run != nil {
				run.cur.Progress = p
			}
			r.mu.Unlock()
		}}
}
