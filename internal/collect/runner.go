package collect

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
)

// DefaultCheckEvery is how often a Runner looks for due sources.
const DefaultCheckEvery = time.Minute

// RunnerStore is what a Runner reads sources from and writes to.
type RunnerStore interface {
	Store
	ListSources(ctx context.Context) ([]catalog.Source, error)
	SourceByName(ctx context.Context, name string) (catalog.Source, error)
}

// RunnerConfig configures a Runner.
type RunnerConfig struct {
	Store RunnerStore
	// Lock, when set, is held around every run, so that instances
	// sharing a database run one at a time; a run that finds it taken
	// is skipped (the instance holding it runs that source).
	Lock   func(ctx context.Context) (unlock func(), ok bool, err error)
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
}

// Runner runs serve's collections in the background: every source
// whose --every is due, and the runs the console asks for, one at a
// time.
type Runner struct {
	cfg      RunnerConfig
	requests chan string

	mu      sync.Mutex
	current Current // Source "" when idle
	queued  map[string]bool
}

// Current is the run in progress.
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
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{cfg: cfg, requests: make(chan string, 16), queued: make(map[string]bool)}
}

// Request asks for a run of the source name as soon as the run in
// progress ends. It returns false when that source is already waiting
// or running, or too many runs wait.
func (r *Runner) Request(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queued[name] || r.current.Source == name {
		return false
	}
	select {
	case r.requests <- name:
		r.queued[name] = true
		return true
	default:
		return false
	}
}

// AllowsPrivate reports whether the runs may reach private addresses
// (--fetch-allow-private), for the console's check of a new source.
func (r *Runner) AllowsPrivate() bool { return r.cfg.Fetch.AllowPrivate }

// Current returns the run in progress; ok is false when there is none.
func (r *Runner) Current() (c Current, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current, r.current.Source != ""
}

// Run works until ctx is done: requested runs first, due sources every
// CheckEvery. A run in progress when ctx ends stops at its page and is
// recorded.
func (r *Runner) Run(ctx context.Context) {
	tick := time.NewTicker(r.cfg.CheckEvery)
	defer tick.Stop()
	r.runDue(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case name := <-r.requests:
			r.mu.Lock()
			delete(r.queued, name)
			r.mu.Unlock()
			if src, err := r.cfg.Store.SourceByName(ctx, name); err == nil {
				r.runOne(ctx, src)
			} else {
				r.cfg.Logger.Warn("collect: source not found", "source", name, "err", err)
			}
		case <-tick.C:
			r.runDue(ctx)
		}
	}
}

func (r *Runner) runDue(ctx context.Context) {
	sources, err := r.cfg.Store.ListSources(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Logger.Warn("collect: cannot list sources", "err", err)
		}
		return
	}
	for _, src := range sources {
		if ctx.Err() != nil {
			return
		}
		if src.Due(time.Now()) {
			r.runOne(ctx, src)
		}
	}
}

// runOne runs src under the lock, publishing its progress.
func (r *Runner) runOne(ctx context.Context, src catalog.Source) {
	if r.cfg.Lock != nil {
		unlock, ok, err := r.cfg.Lock(ctx)
		if err != nil || !ok {
			r.cfg.Logger.Info("collect: another instance is collecting; skipped", "source", src.Name, "err", err)
			return
		}
		defer unlock()
	}
	r.mu.Lock()
	r.current = Current{Source: src.Name, Started: time.Now()}
	r.mu.Unlock()
	opts := Options{Source: src.Name, URL: src.URL, Hours: src.RunHours(), Limits: r.cfg.Limits, Fetch: r.cfg.Fetch,
		Progress: func(p Progress) {
			r.mu.Lock()
			r.current.Progress = p
			r.mu.Unlock()
		}}
	run, _, err := Run(ctx, r.cfg.Store, opts)
	r.mu.Lock()
	r.current = Current{}
	r.mu.Unlock()
	if r.cfg.Observe != nil {
		r.cfg.Observe(run)
	}
	log := r.cfg.Logger.With("source", src.Name, "pages", run.Pages, "read", run.Read, "written", run.Written, "rejected", run.Rejected)
	if err != nil {
		log.Warn("collect: run stopped", "err", err)
		return
	}
	log.Info("collect: run finished")
}
