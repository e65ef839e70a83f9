package linkcheck

import (
	"time"

	"catalog/internal/catalog"
)

// RetryAfter is how soon a server whose check failed is checked again:
// a failed check is retried once before the server is dead (contract 13).
const RetryAfter = 2 * time.Minute

// outcome is what the check of one server found.
type outcome struct {
	ok      bool
	result  string // a label of Results
	problem string // in our own words, "" when ok
}

// schedule holds the times that decide a movie's findings.
type schedule struct {
	interval  time.Duration // --probe-interval
	deadAfter time.Duration // --dead-after
}

// apply returns the movie's health after the checks found outcomes (by
// server name) at now, and when the movie is due next: within the
// interval, sooner for a first failure (its retry) and for a dead
// server about to pass --dead-after (so that it goes last on time).
// Servers the movie no longer has are dropped; a server without an
// outcome keeps what it had.
func (sc schedule) apply(servers []catalog.Server, prev []catalog.ServerHealth, found map[string]outcome, now time.Time) ([]catalog.ServerHealth, time.Time) {
	// Most of the interval, so that the time a check waits in the
	// queue does not push a server past it.
	due := now.Add(sc.interval - sc.interval/10)
	sooner := func(t time.Time) {
		if t.After(now) && t.Before(due) {
			due = t
		}
	}
	var next []catalog.ServerHealth
	for _, s := range servers {
		h := catalog.ServerHealth{Server: s.Name}
		if old := catalog.HealthOf(prev, s.Name); old != nil {
			h = *old
		}
		if o, ok := found[s.Name]; ok {
			h.CheckedAt = now.Unix()
			h.Next++
			if o.ok {
				h.Status, h.Fails, h.FailedSince, h.Problem = catalog.LinkOK, 0, 0, ""
			} else {
				h.Fails++
				h.Problem = o.problem
				if h.FailedSince == 0 {
					h.FailedSince = now.Unix()
				}
				if h.Fails >= 2 {
					h.Status = catalog.LinkDead
				} else {
					sooner(now.Add(RetryAfter))
				}
			}
		}
		h.Last = false
		if h.Status == catalog.LinkDead {
			gone := catalog.UnixTime(h.FailedSince).Add(sc.deadAfter)
			h.Last = !now.Before(gone)
			sooner(gone)
		}
		next = append(next, h)
	}
	return next, due
}
