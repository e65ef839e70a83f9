// Package ratelimit counts what anonymous clients send that must count
// only once in a while: a player's failure report (contract 13, one per
// client address per movie per hour), a hit. One limiter for all of
// them, in memory, per instance: several instances behind a balancer
// each count on their own, which at worst lets a client count once per
// instance.
package ratelimit

import (
	"net"
	"net/http"
	"sync"
	"time"

	"catalog/internal/auth"
)

// Once lets one event per key through per window: the first counts,
// the others until the window has passed do not. It holds at most max
// keys; when full (a flood of fresh keys), it forgets the expired ones,
// and when none has expired it lets nothing new through until one does,
// so that memory stays bounded whatever clients send.
type Once struct {
	window time.Duration
	max    int
	now    func() time.Time

	mu   sync.Mutex
	seen map[string]time.Time // key -> when its window ends
}

// DefaultMaxKeys bounds a limiter's memory: about 100 bytes a key.
const DefaultMaxKeys = 1 << 17

// NewOnce returns a limiter of one event per key per window, holding at
// most maxKeys keys (0: DefaultMaxKeys).
func NewOnce(window time.Duration, maxKeys int) *Once {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	return &Once{window: window, max: maxKeys, now: time.Now, seen: map[string]time.Time{}}
}

// Allow reports whether the event of key counts, and if so starts its
// window.
func (o *Once) Allow(key string) bool {
	now := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if end, ok := o.seen[key]; ok && now.Before(end) {
		return false
	}
	if len(o.seen) >= o.max {
		for k, end := range o.seen {
			if !now.Before(end) {
				delete(o.seen, k)
			}
		}
		if len(o.seen) >= o.max {
			return false
		}
	}
	o.seen[key] = now.Add(o.window)
	return true
}

// ClientKey is the key of the client of r: its address (after
// httpx.BehindProxies named it), an IPv6 address as its /64 network, as
// login throttling counts them.
func ClientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return auth.ThrottleKey(host)
}
