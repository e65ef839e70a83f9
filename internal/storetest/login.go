package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runLoginThrottle holds both engines to contract 5's throttling. The
// contract's numbers are literals here (5 per pair, 20 per address, 100
// per username, 15 minutes, 30 days, 64 bytes), not the constants under
// test, so that a changed limit fails.
func runLoginThrottle(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

	// reserve wants the attempt counted (ok) or refused with ETOOMANY.
	reserve := func(t *testing.T, s catalog.Store, user, addr string, at time.Time, ok bool) {
		t.Helper()
		err := s.ReserveLogin(ctx, user, addr, at)
		if ok && err != nil {
			t.Fatalf("ReserveLogin(%q, %q, %v): got %v, want it counted", user, addr, at, err)
		}
		if !ok && catalog.ErrorCode(err) != catalog.ETOOMANY {
			t.Fatalf("ReserveLogin(%q, %q, %v): got %v, want code %q", user, addr, at, err, catalog.ETOOMANY)
		}
	}
	reserveN := func(t *testing.T, s catalog.Store, n int, user, addr string, at time.Time) {
		t.Helper()
		for range n {
			reserve(t, s, user, addr, at, true)
		}
	}
	// unlock wants username's stored failures to number want.
	unlock := func(t *testing.T, s catalog.Store, user string, want int64) {
		t.Helper()
		n, err := s.UnlockLogin(ctx, user)
		noErr(t, err, "UnlockLogin")
		if n != want {
			t.Fatalf("UnlockLogin(%q): got %d failures cleared, want %d", user, n, want)
		}
	}

	t.Run("PairLimit", func(t *testing.T) {
		s := open(t)
		reserveN(t, s, 5, "bob", "192.0.2.1", t0)
		reserve(t, s, "bob", "192.0.2.1", t0, false)
		reserve(t, s, "bob", "192.0.2.1", t0.Add(time.Minute), false)
		// Neither the username nor the address is held yet.
		reserve(t, s, "bob", "192.0.2.2", t0, true)
		reserve(t, s, "carol", "192.0.2.1", t0, true)
		// The refused attempts were not counted.
		unlock(t, s, "bob", 6)
	})

	t.Run("AddressLimit", func(t *testing.T) {
		s := open(t)
		for i := range 20 {
			reserve(t, s, fmt.Sprintf("user%d", i), "192.0.2.1", t0, true)
		}
		reserve(t, s, "user20", "192.0.2.1", t0, false)
		reserve(t, s, "user0", "192.0.2.1", t0, false)
		reserve(t, s, "user20", "192.0.2.2", t0, true)
		unlock(t, s, "user20", 1)
		// Unlocking one username frees one slot of the address.
		unlock(t, s, "user0", 1)
		reserve(t, s, "user21", "192.0.2.1", t0, true)
		reserve(t, s, "user22", "192.0.2.1", t0, false)
	})

	t.Run("UsernameLimit", func(t *testing.T) {
		s := open(t)
		const known, stale, otherUsers = "198.51.100.1", "198.51.100.2", "198.51.100.3"
		noErr(t, s.LoginSucceeded(ctx, "bob", stale, t0.Add(-31*24*time.Hour)), "LoginSucceeded")
		noErr(t, s.LoginSucceeded(ctx, "bob", known, t0.Add(-29*24*time.Hour)), "LoginSucceeded")
		noErr(t, s.LoginSucceeded(ctx, "carol", otherUsers, t0.Add(-time.Hour)), "LoginSucceeded")
		// 100 failures from 20 addresses, 5 each: no pair or address
		// limit is reached.
		for i := range 20 {
			reserveN(t, s, 5, "bob", fmt.Sprintf("203.0.113.%d", i), t0)
		}
		reserve(t, s, "bob", "203.0.113.99", t0, false)
		reserve(t, s, "bob", stale, t0, false)      // its success is 31 days old
		reserve(t, s, "bob", otherUsers, t0, false) // known for carol, not bob
		// The address bob logged in from 29 days ago is not held by the
		// username limit, only by its own pair and address limits.
		reserveN(t, s, 5, "bob", known, t0)
		reserve(t, s, "bob", known, t0, false)
		// Other usernames are not held.
		reserve(t, s, "carol", "203.0.113.99", t0, true)
		// Unlock frees the username everywhere.
		unlock(t, s, "bob", 105)
		reserve(t, s, "bob", "203.0.113.99", t0, true)
	})

	t.Run("SuccessClearsPair", func(t *testing.T) {
		s := open(t)
		reserveN(t, s, 4, "bob", "192.0.2.1", t0)
		reserveN(t, s, 3, "bob", "192.0.2.2", t0)
		reserveN(t, s, 2, "carol", "192.0.2.1", t0)
		// The success's own attempt was reserved first, as the login
		// handler does; the success clears it too.
		reserve(t, s, "bob", "192.0.2.1", t0, true)
		noErr(t, s.LoginSucceeded(ctx, "bob", "192.0.2.1", t0), "LoginSucceeded")
		reserveN(t, s, 5, "bob", "192.0.2.1", t0.Add(time.Second))
		reserve(t, s, "bob", "192.0.2.1", t0.Add(time.Second), false)
		unlock(t, s, "bob", 5+3)
		unlock(t, s, "carol", 2)
	})

	t.Run("Window", func(t *testing.T) {
		s := open(t)
		now := t0
		reserveN(t, s, 5, "carol", "192.0.2.1", now.Add(-10*time.Minute))
		reserveN(t, s, 5, "bob", "192.0.2.2", now.Add(-16*time.Minute))
		// 16-minute-old failures no longer count; 10-minute-old ones do.
		reserve(t, s, "bob", "192.0.2.2", now, true)
		reserve(t, s, "carol", "192.0.2.1", now, false)
		// ... and the old ones are gone from the database.
		unlock(t, s, "bob", 1)
		unlock(t, s, "carol", 5)
	})

	t.Run("UsernameLength", func(t *testing.T) {
		s := open(t)
		for _, tt := range []struct {
			name, user string
			ok         bool
		}{
			{"64 bytes", strings.Repeat("a", 64), true},
			{"65 bytes", strings.Repeat("a", 65), false},
			{"33 two-byte letters", strings.Repeat("é", 33), false},
			{"16 KiB", strings.Repeat("a", 16<<10), false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				err := s.ReserveLogin(ctx, tt.user, "192.0.2.1", t0)
				if tt.ok {
					noErr(t, err, "ReserveLogin")
					unlock(t, s, tt.user, 1)
					return
				}
				wantCode(t, err, catalog.EINVALID)
				unlock(t, s, tt.user, 0)
			})
		}
	})

	// Of 50 parallel guesses at one pair, exactly 5 are counted (and so
	// reach a password check); the other 45 are refused.
	t.Run("Parallel", func(t *testing.T) {
		s := open(t)
		var mu sync.Mutex
		codes := map[string]int{}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 50 {
			wg.Go(func() {
				<-start
				err := s.ReserveLogin(ctx, "bob", "192.0.2.1", t0)
				mu.Lock()
				codes[catalog.ErrorCode(err)]++
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		if codes[""] != 5 || codes[catalog.ETOOMANY] != 45 {
			t.Fatalf("50 parallel attempts: got %v (by error code), want 5 counted and 45 %q", codes, catalog.ETOOMANY)
		}
		unlock(t, s, "bob", 5)
	})
}
