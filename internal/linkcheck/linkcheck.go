// Package linkcheck is the link prober of serve (contract 13): in the
// background it checks each server of each movie, one episode at a
// time (a different one each time), and stores what it found, which the
// movie service serves as the server's "status" and by which it puts
// the servers dead for long after the live ones.
//
// An HLS link is checked by its playlist (a GET of at most 256 KiB
// within 10 s whose body starts with #EXTM3U; for a master playlist its
// first variant too), an embed link by its status (below 400). Every
// fetch goes through internal/fetchguard, so that links in our own data
// cannot reach our network. The prober is polite: at most Rate requests
// a second in all and PerHost at a time per host. The queue lives in
// the database (catalog.LinkStore), so the instances sharing it share
// the work, and a reported movie goes first.
package linkcheck

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
)

// Defaults of Options (contract 13).
const (
	DefaultInterval  = 24 * time.Hour
	DefaultRate      = 5
	DefaultDeadAfter = 48 * time.Hour
	DefaultPerHost   = 2
	// FetchTimeout bounds one fetch, redirects and body included.
	FetchTimeout = 10 * time.Second
	// MaxPlaylist is how much of a playlist is read.
	MaxPlaylist = 256 << 10
	// StartDelay is how long after start the first check waits: a
	// starting serve has its index to load first.
	StartDelay = time.Minute
	// pollEvery is how often an idle prober looks for due movies (a
	// report on another instance, a movie just imported).
	pollEvery = time.Minute
	// lease is how long a claimed movie stays out of the queue while
	// it is checked; an instance that dies leaves it due again after.
	lease = 15 * time.Minute
	// workers is how many movies are checked at a time.
	workers = 16
)

// Results are the values of a check's result (the metrics' label).
var Results = []string{"ok", "status", "not_playlist", "timeout", "refused", "error"}

// Options configure a Prober; the zero value takes the defaults.
type Options struct {
	Interval  time.Duration // each server is checked at least this often
	DeadAfter time.Duration // a server dead this long is served last
	Rate      float64       // requests a second, in all
	PerHost   int           // requests at a time to one host
	// Guard configures the fetches (AllowPrivate for
	// --fetch-allow-private, a test's Resolver); a zero Timeout means
	// FetchTimeout.
	Guard fetchguard.Options
	// StartDelay is the wait before the first check; 0 means
	// StartDelay, a negative value none.
	StartDelay time.Duration
	Logger     *slog.Logger
	// Checked, when set, counts every server checked by its result.
	Checked func(result string)
	// Changed, when set, hears of the movies whose served episodes
	// changed (a status, an order), after they are stored.
	Changed func(ids []int64)
}

// Prober checks links until its Run returns.
type Prober struct {
	st     catalog.LinkStore
	opts   Options
	sched  schedule
	client *http.Client
	log    *slog.Logger
	wake   chan struct{}
	hosts  hostLimits
	every  time.Duration // between two requests, from Rate
}

// New returns a prober over st.
func New(st catalog.LinkStore, opts Options) *Prober {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.DeadAfter <= 0 {
		opts.DeadAfter = DefaultDeadAfter
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.PerHost <= 0 {
		opts.PerHost = DefaultPerHost
	}
	if opts.StartDelay == 0 {
		opts.StartDelay = StartDelay
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	g := opts.Guard
	if g.Timeout <= 0 {
		g.Timeout = FetchTimeout
	}
	return &Prober{
		st: st, opts: opts, log: opts.Logger,
		sched:  schedule{interval: opts.Interval, deadAfter: opts.DeadAfter},
		client: fetchguard.NewClient(g),
		wake:   make(chan struct{}, 1),
		hosts:  hostLimits{n: opts.PerHost, held: map[string]*hostSlots{}},
		every:  time.Duration(float64(time.Second) / opts.Rate),
	}
}

// Wake makes an idle prober look at its queue now (a report moved a
// movie to its front). It never blocks; a nil prober (off) does
// nothing.
func (p *Prober) Wake() {
	if p == nil {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run checks due movies until ctx is done.
func (p *Prober) Run(ctx context.Context) {
	if !p.sleep(ctx, p.opts.StartDelay, false) {
		return
	}
	tick := time.NewTicker(p.every)
	defer tick.Stop()
	// A batch is about ten seconds of requests, so that its findings
	// are stored (and the caches see a new data version) that often.
	batch := max(workers, int(p.opts.Rate*10))
	for ctx.Err() == nil {
		n, err := p.round(ctx, batch, tick.C)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			p.log.Warn("link prober: "+err.Error(), "err", err)
			p.sleep(ctx, pollEvery, false)
		case n == 0:
			p.sleep(ctx, pollEvery, true)
		}
	}
}

// round claims up to batch due movies, checks them and stores what it
// found; it returns how many it claimed. A round cut short by ctx
// stores nothing: the leases run out and another round checks them.
func (p *Prober) round(ctx context.Context, batch int, tick <-chan time.Time) (int, error) {
	claimed, err := p.st.ClaimLinkChecks(ctx, time.Now(), lease, batch)
	if err != nil || len(claimed) == 0 {
		return 0, err
	}
	results, changed := p.checkAll(ctx, claimed, tick)
	if ctx.Err() != nil {
		return len(claimed), ctx.Err()
	}
	if err := p.st.SaveLinkChecks(ctx, results); err != nil {
		return len(claimed), err
	}
	if len(changed) > 0 && p.opts.Changed != nil {
		p.opts.Changed(changed)
	}
	return len(claimed), nil
}

// sleep waits d, or until ctx is done, or (when wakeable) until Wake;
// false when ctx is done.
func (p *Prober) sleep(ctx context.Context, d time.Duration, wakeable bool) bool {
	if d < 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	wake := p.wake
	if !wakeable {
		wake = nil
	}
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-wake:
	}
	return true
}

// checkAll checks the claimed movies, workers at a time, and returns
// their findings and the ids of those whose served episodes changed.
func (p *Prober) checkAll(ctx context.Context, claimed []catalog.LinkCheck, tick <-chan time.Time) ([]catalog.LinkResult, []int64) {
	results := make([]catalog.LinkResult, len(claimed))
	changed := make([]bool, len(claimed))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, c := range claimed {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			found := map[string]outcome{}
			for _, s := range c.Episodes {
				prev := catalog.HealthOf(c.Health, s.Name)
				n := 0
				if prev != nil {
					n = prev.Next
				}
				o := p.checkServer(ctx, s, n, tick)
				if ctx.Err() != nil {
					return
				}
				found[s.Name] = o
				if p.opts.Checked != nil {
					p.opts.Checked(o.result)
				}
			}
			health, due := p.sched.apply(c.Episodes, c.Health, found, time.Now())
			results[i] = catalog.LinkResult{MovieID: c.MovieID, Health: health, Due: due}
			changed[i] = servedChange(c.Health, health)
		})
	}
	wg.Wait()
	var ids []int64
	for i, ch := range changed {
		if ch {
			ids = append(ids, claimed[i].MovieID)
		}
	}
	return results, ids
}

// servedChange reports whether a server's status or place changed
// between a and b (the edge then holds a stale answer).
func servedChange(a, b []catalog.ServerHealth) bool {
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		if a[i].Server != b[i].Server || a[i].Status != b[i].Status || a[i].Last != b[i].Last {
			return true
		}
	}
	return false
}

// checkServer checks one episode of s: the n-th of those with a link,
// so that each check takes the next one.
func (p *Prober) checkServer(ctx context.Context, s catalog.Server, n int, tick <-chan time.Time) outcome {
	var eps []catalog.Episode
	for _, e := range s.Episodes {
		if e.LinkM3U8 != "" || e.LinkEmbed != "" {
			eps = append(eps, e)
		}
	}
	if len(eps) == 0 {
		return outcome{result: "error", problem: "no link to check"}
	}
	e := eps[n%len(eps)]
	if e.LinkM3U8 != "" {
		return p.checkPlaylist(ctx, e.LinkM3U8, tick)
	}
	return p.checkEmbed(ctx, e.LinkEmbed, tick)
}

// checkEmbed passes an embed link that answers below 400.
func (p *Prober) checkEmbed(ctx context.Context, link string, tick <-chan time.Time) outcome {
	res, err := p.get(ctx, link, tick)
	if err != nil {
		return failed(err)
	}
	res.Body.Close()
	if res.StatusCode >= 400 {
		return failed(&fetchguard.StatusError{Code: res.StatusCode})
	}
	return outcome{ok: true, result: "ok"}
}

// checkPlaylist passes an HLS link whose playlist starts with #EXTM3U;
// for a master playlist, its first variant's must too.
func (p *Prober) checkPlaylist(ctx context.Context, link string, tick <-chan time.Time) outcome {
	body, final, o := p.playlist(ctx, link, tick)
	if !o.ok {
		return o
	}
	variant := firstVariant(body)
	if variant == "" {
		return o
	}
	u, err := final.Parse(variant)
	if err != nil {
		return outcome{result: "not_playlist", problem: "the first variant's address is not readable"}
	}
	_, _, o = p.playlist(ctx, u.String(), tick)
	if !o.ok {
		o.problem = "first variant: " + o.problem
	}
	return o
}

// playlist fetches one playlist and checks its start.
func (p *Prober) playlist(ctx context.Context, link string, tick <-chan time.Time) ([]byte, *url.URL, outcome) {
	res, err := p.get(ctx, link, tick)
	if err != nil {
		return nil, nil, failed(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, nil, failed(&fetchguard.StatusError{Code: res.StatusCode})
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxPlaylist))
	if err != nil {
		return nil, nil, failed(err)
	}
	if !bytes.HasPrefix(bytes.TrimPrefix(body, []byte("\ufeff")), []byte("#EXTM3U")) {
		return nil, nil, outcome{result: "not_playlist", problem: "not an HLS playlist (no #EXTM3U)"}
	}
	return body, res.Request.URL, outcome{ok: true, result: "ok"}
}

// firstVariant is the address of a master playlist's first variant (the
// line after the first #EXT-X-STREAM-INF), or "" for a media playlist.
func firstVariant(body []byte) string {
	lines := strings.Split(string(body), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "#EXT-X-STREAM-INF") {
			continue
		}
		for _, next := range lines[i+1:] {
			next = strings.TrimSpace(next)
			if next != "" && !strings.HasPrefix(next, "#") {
				return next
			}
		}
		return ""
	}
	return ""
}

// get fetches link once the host has a free slot and the rate allows.
// The caller closes the body; the request's own timeout (FetchTimeout)
// covers reading it.
func (p *Prober) get(ctx context.Context, link string, tick <-chan time.Time) (*http.Response, error) {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, errNotHTTP
	}
	release, err := p.hosts.take(ctx, strings.ToLower(u.Hostname()))
	if err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	case <-tick:
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		release()
		return nil, errNotHTTP
	}
	res, err := p.client.Do(req)
	if err != nil {
		release()
		return nil, err
	}
	res.Body = &releasing{ReadCloser: res.Body, release: release}
	return res, nil
}

// releasing gives the host's slot back when the body is closed.
type releasing struct {
	io.ReadCloser
	release func()
	once    sync.Once
}

func (r *releasing) Close() error {
	err := r.ReadCloser.Close()
	r.once.Do(r.release)
	return err
}

// errNotHTTP is a link that is not an http(s) address.
var errNotHTTP = errors.New("not an http(s) address")

// failed is the outcome of a failed fetch, in our own words.
func failed(err error) outcome {
	var (
		refused  *fetchguard.RefusedError
		redirect *fetchguard.RedirectError
		status   *fetchguard.StatusError
	)
	o := outcome{problem: fetchguard.Describe(err), result: "error"}
	switch {
	case errors.As(err, &refused), errors.As(err, &redirect):
		o.result = "refused"
	case errors.As(err, &status):
		o.result = "status"
	case o.problem == "timed out":
		o.result = "timeout"
	case errors.Is(err, errNotHTTP):
		o.problem = errNotHTTP.Error()
	}
	return o
}

// hostLimits allows n requests at a time per host.
type hostLimits struct {
	n    int
	mu   sync.Mutex
	held map[string]*hostSlots
}

// hostSlots are one host's slots and how many requests hold or wait for
// one, so that the entry goes once nobody needs it (no map of every host
// ever seen) and never while somebody does.
type hostSlots struct {
	ch   chan struct{}
	refs int
}

// take waits for a slot of host and returns its release.
func (h *hostLimits) take(ctx context.Context, host string) (func(), error) {
	h.mu.Lock()
	hs, ok := h.held[host]
	if !ok {
		hs = &hostSlots{ch: make(chan struct{}, h.n)}
		h.held[host] = hs
	}
	hs.refs++
	h.mu.Unlock()
	done := func() {
		h.mu.Lock()
		if hs.refs--; hs.refs == 0 {
			delete(h.held, host)
		}
		h.mu.Unlock()
	}
	select {
	case hs.ch <- struct{}{}:
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
	return func() {
		<-hs.ch
		done()
	}, nil
}
