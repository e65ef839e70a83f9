package collect

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Politeness (contract 10, issue 40): resource sites ban collectors
// that ask too fast, so the requests to one host go one at a time, at
// least an interval apart, and a page that failed for a reason that
// passes (a timeout, a cut connection, a 5xx or 429 answer) is asked
// for again after a growing, jittered wait.

// DefaultInterval is the least time between the end of one page request
// to a host and the start of the next (--collect-interval).
const DefaultInterval = time.Second

// Tries is how many times a run asks for a page that fails for a
// reason that passes, before it stops.
const Tries = 3

// DefaultRetryWait is the wait before the second try; each later wait
// doubles it, and each is drawn between half and the whole of that.
const DefaultRetryWait = time.Second

// Hosts spaces the requests of every run that shares it (serve's
// runner shares one between its runs): one request at a time to a
// host, the next at least an interval after the last ended. The zero
// value is ready to use.
type Hosts struct {
	mu    sync.Mutex
	slots map[string]*hostSlot
}

type hostSlot struct {
	turn chan struct{} // holds one token: the right to ask the host
	last time.Time     // when the last request to the host ended
}

// take waits for host's turn and then for interval after its last
// request; release ends the request.
func (h *Hosts) take(ctx context.Context, host string, interval time.Duration) (release func(), err error) {
	h.mu.Lock()
	if h.slots == nil {
		h.slots = make(map[string]*hostSlot)
	}
	s, ok := h.slots[host]
	if !ok {
		s = &hostSlot{turn: make(chan struct{}, 1)}
		h.slots[host] = s
	}
	h.mu.Unlock()
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	if wait := time.Until(s.last.Add(interval)); wait > 0 && !s.last.IsZero() {
		if err := sleep(ctx, wait); err != nil {
			<-s.turn
			return nil, err
		}
	}
	return func() {
		s.last = time.Now()
		<-s.turn
	}, nil
}

// sleep waits d, or until ctx ends (its cause).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// retryWait is the wait before try n+1 (n >= 1): base doubled n-1
// times, drawn between half and the whole of it.
func retryWait(base time.Duration, n int) time.Duration {
	d := base << (n - 1)
	return d/2 + rand.N(d/2+1)
}

// passing marks an error that may pass if the page is asked for again.
type passing struct{ error }

func (e passing) Unwrap() error { return e.error }

// mayPass reports whether a failed request may succeed if asked again:
// a timeout or a cut connection, or an answer 5xx or 429, which fetch
// and failed mark passing; never a refused address, an answer too
// large, or what the answer said, which they do not.
func mayPass(err error) bool {
	var p passing
	return errors.As(err, &p)
}

// passingStatus reports whether an answer's status may pass.
func passingStatus(code int) bool {
	return code >= 500 || code == http.StatusTooManyRequests
}
