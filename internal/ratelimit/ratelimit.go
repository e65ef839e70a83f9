// Package ratelimit counts what anonymous clients send that must count
// only once in a while: a player's failure report (contract 13, one per
// client address per movie per hour), a hit (contract 12, the same). One
// limiter for all of them, in memory, per instance: several instances
// behind a balancer each count on their own, which at worst lets a
// client count once per instance.
package ratelimit

import (
	"hash/maphash"
	"net"
	"net/http"
	"sync"
	"time"

	"catalog/internal/auth"
)

// Once lets one event per key through per window: the first counts, the
// others until the window has passed do not. It holds at most max keys.
// Keys are kept as 64-bit hashes (a chance of about one in 10^7 that
// two of a million keys share one, which costs one of them an event)
// with the end of their window, in the order their windows end, so that
// the expired are dropped from the front without a scan. When it is full
// of keys whose windows have not ended (a flood of fresh keys), the
// oldest is forgotten early: the window shortens under the flood instead
// of turning everyone new away, and memory stays bounded whatever
// clients send.
type Once struct {
	window time.Duration
	max    int
	now    func() time.Time
	start  time.Time // the origin of the ends, monotonic
	seed   maphash.Seed

	mu    sync.Mutex
	seen  map[uint64]int64 // key hash -> when its window ends, after start
	order ring             // the same, in the order the windows end
}

// entry is one key's window in order.
type entry struct {
	key uint64
	end int64
}

// ring is a FIFO of entries in a slice that grows to the limiter's
// largest size and is then reused.
type ring struct {
	buf        []entry
	head, size int
}

func (r *ring) push(e entry) {
	if r.size == len(r.buf) {
		grown := make([]entry, max(16, 2*len(r.buf)))
		for i := range r.size {
			grown[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = grown, 0
	}
	r.buf[(r.head+r.size)%len(r.buf)] = e
	r.size++
}

func (r *ring) front() entry { return r.buf[r.head] }

func (r *ring) pop() {
	r.head = (r.head + 1) % len(r.buf)
	r.size--
}

// DefaultMaxKeys bounds a limiter's memory: about 40 bytes a key.
const DefaultMaxKeys = 1 << 17

// NewOnce returns a limiter of one event per key per window, holding at
// most maxKeys keys (0: DefaultMaxKeys).
func NewOnce(window time.Duration, maxKeys int) *Once {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	return &Once{window: window, max: maxKeys, now: time.Now, start: time.Now(), seed: maphash.MakeSeed(),
		seen: map[uint64]int64{}}
}

// Allow reports whether the event of key counts, and if so starts its
// window.
func (o *Once) Allow(key string) bool {
	h := maphash.String(o.seed, key)
	now := int64(o.now().Sub(o.start))
	o.mu.Lock()
	defer o.mu.Unlock()
	// The windows that have ended go first, from the front.
	for o.order.size > 0 && o.order.front().end <= now {
		o.forget(o.order.front())
	}
	if _, ok := o.seen[h]; ok {
		return false
	}
	if len(o.seen) >= o.max {
		o.forget(o.order.front())
	}
	end := now + int64(o.window)
	o.seen[h] = end
	o.order.push(entry{key: h, end: end})
	return true
}

// forget drops the front entry; o.mu is held. Every entry in order is
// its key's one window: a key is let in again only after its entry left
// the front.
func (o *Once) forget(e entry) {
	delete(o.seen, e.key)
	o.order.pop()
}

// Len is how many keys the limiter holds.
func (o *Once) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.seen)
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
