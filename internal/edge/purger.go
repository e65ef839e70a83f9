package edge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"catalog/internal/catalog"

	"github.com/sethvargo/go-retry"
)

const (
	// QueueSize bounds the announcements waiting to be sent. A write
	// never waits for room: past this, an announcement is dropped, and
	// only its collection keys are kept (see Announce).
	QueueSize = 1024
	// MaxItemKeys bounds the item keys of one purge request; a larger
	// batch sends only its collection keys, which every object of the
	// collection carries. 64 keys keep the header under about 1 KiB,
	// well inside any proxy's header limit.
	MaxItemKeys = 64
	// Attempts is how often one purge is tried before it is given up
	// (and logged); the waits between them double from RetryWait up to
	// MaxRetryWait: about 30 s of waiting in all.
	Attempts     = 8
	RetryWait    = 250 * time.Millisecond
	MaxRetryWait = 15 * time.Second
	// requestTimeout bounds one purge request.
	requestTimeout = 10 * time.Second
)

// PurgerConfig configures a Purger.
type PurgerConfig struct {
	URL    string // where to send purges; PURGE method, keys in headers
	Client *http.Client
	Logger *slog.Logger
	// Done, when set, hears of every purge request finished: sent and
	// answered 2xx (err nil) or given up. Tests wait on it.
	Done func(keys []string, err error)
	// RetryWait overrides the first wait between attempts (tests).
	RetryWait time.Duration
}

// Purger sends the keys that writes announce to the purge URL, one
// request at a time, in the background. Announce never blocks and never
// fails: a write is committed before it announces, and an edge that is
// away must not fail or slow it.
//
// The request: "PURGE <url>" with the keys, space-separated, in both
// xkey-purge (Varnish's xkey vmod, see deploy/varnish/catalog.vcl) and
// Surrogate-Key. Any 2xx answer is success; others and network errors
// are retried with backoff, except 4xx other than 408 and 429 (a wrong
// URL or a refused client does not get better by retrying).
type Purger struct {
	url       string
	safeURL   string // url as logs may show it (catalog.RedactURL)
	client    *http.Client
	log       *slog.Logger
	done      func([]string, error)
	retryWait time.Duration

	queue chan []string

	mu       sync.Mutex
	overflow []string // collection keys of dropped announcements
	closed   bool
	running  sync.WaitGroup
	ctx      context.Context // cancelled when Close gives up: ends the request in flight and the waits
	cancel   context.CancelFunc
}

// NewPurger returns a Purger and starts its sender; Close stops it.
// An empty URL returns nil, and a nil Purger ignores announcements.
func NewPurger(cfg PurgerConfig) *Purger {
	if cfg.URL == "" {
		return nil
	}
	p := &Purger{url: cfg.URL, safeURL: catalog.RedactURL(cfg.URL), client: cfg.Client, log: cfg.Logger, done: cfg.Done,
		retryWait: cfg.RetryWait, queue: make(chan []string, QueueSize)}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if p.client == nil {
		p.client = &http.Client{Timeout: requestTimeout}
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.retryWait <= 0 {
		p.retryWait = RetryWait
	}
	p.running.Go(p.run)
	return p
}

// Announce queues keys for purging and returns at once. When the queue
// is full the announcement is dropped with a log line; its collection
// keys (movies, clips, snapshot) are kept and go out with the next
// request, so the edge never keeps a changed record past the next purge.
func (p *Purger) Announce(keys ...string) {
	if p == nil || len(keys) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	select {
	case p.queue <- keys:
	default:
		p.log.Warn("edge purge queue full: announcement dropped, its collection keys kept", "keys", len(keys))
		for _, k := range keys {
			if isCollection(k) && !slices.Contains(p.overflow, k) {
				p.overflow = append(p.overflow, k)
			}
		}
	}
}

func isCollection(k string) bool { return k == Movies || k == Clips || k == Snapshot }

// Close stops taking announcements and waits, at most until ctx is
// done, for those queued to be sent; then it abandons the rest.
func (p *Purger) Close(ctx context.Context) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.queue)
	}
	p.mu.Unlock()
	finished := make(chan struct{})
	go func() { p.running.Wait(); close(finished) }()
	defer p.cancel()
	select {
	case <-finished:
	case <-ctx.Done():
		p.cancel()
		<-finished
		p.log.Warn("edge purges abandoned at exit", "err", ctx.Err())
	}
}

// run sends queued announcements. Announcements that wait together
// (writes faster than purges) are merged into one request.
func (p *Purger) run() {
	for keys := range p.queue {
		batch := append([]string(nil), keys...)
	merge:
		for {
			select {
			case more, ok := <-p.queue:
				if !ok {
					break merge
				}
				batch = append(batch, more...)
			default:
				break merge
			}
		}
		p.mu.Lock()
		batch = append(batch, p.overflow...)
		p.overflow = nil
		p.mu.Unlock()
		p.send(condense(batch))
	}
}

// condense removes duplicates, keeps the order of first appearance
// (collection keys first reads best in logs) and drops the item keys
// when there are too many to send.
func condense(keys []string) []string {
	seen := make(map[string]bool, len(keys))
	var collections, items []string
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		if isCollection(k) {
			collections = append(collections, k)
		} else {
			items = append(items, k)
		}
	}
	if len(items) > MaxItemKeys {
		return collections
	}
	return append(collections, items...)
}

// send tries one purge until it succeeds, fails for good, or the
// Purger is stopped (sethvargo/go-retry: the waits double from
// retryWait, capped at MaxRetryWait).
func (p *Purger) send(keys []string) {
	attempt := 0
	backoff := retry.WithMaxRetries(Attempts-1, retry.WithCappedDuration(MaxRetryWait, retry.NewExponential(p.retryWait)))
	err := retry.Do(p.ctx, backoff, func(context.Context) error {
		attempt++
		again, err := p.post(keys)
		if err != nil && again && attempt < Attempts {
			p.log.Info("edge purge failed, retrying", "keys", strings.Join(keys, " "), "attempt", attempt, "err", err)
			return retry.RetryableError(err)
		}
		return err
	})
	if err != nil {
		p.log.Warn("edge purge given up", "keys", strings.Join(keys, " "), "err", err)
	}
	if p.done != nil {
		p.done(keys, err)
	}
}

// post sends one PURGE request; retry says whether a failure may pass.
func (p *Purger) post(keys []string) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(p.ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "PURGE", p.url, nil)
	if err != nil {
		return false, err
	}
	list := strings.Join(keys, " ")
	req.Header.Set("xkey-purge", list)
	req.Header.Set("Surrogate-Key", list)
	resp, err := p.client.Do(req)
	if err != nil {
		// The error quotes the URL, which is logged: a key in its
		// query or its user part must not be.
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = p.safeURL
		}
		return true, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	resp.Body.Close()
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		return false, nil
	case s == http.StatusRequestTimeout || s == http.StatusTooManyRequests || s >= 500:
		return true, fmt.Errorf("purge answered %s", resp.Status)
	default:
		return false, fmt.Errorf("purge answered %s", resp.Status)
	}
}
