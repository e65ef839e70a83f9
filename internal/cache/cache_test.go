package cache_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/cache"
	"catalog/internal/httpx"
)

func payload(s string) func(context.Context) (*httpx.Payload, error) {
	return func(context.Context) (*httpx.Payload, error) { return httpx.NewPayload([]byte(s)), nil }
}

func get(t *testing.T, c *cache.Reads, version int64, key, body string) string {
	t.Helper()
	p, err := c.Get(context.Background(), version, key, payload(body))
	if err != nil {
		t.Fatal(err)
	}
	return string(p.Plain)
}

func TestResponses(t *testing.T) {
	t.Parallel()
	c := cache.NewResponses(0)
	if got := get(t, c, 1, "a", "one"); got != "one" {
		t.Errorf("miss: got %q, want one", got)
	}
	if got := get(t, c, 1, "a", "other"); got != "one" {
		t.Errorf("hit: got %q, want the cached one", got)
	}
	if got := get(t, c, 1, "b", "two"); got != "two" {
		t.Errorf("other key: got %q, want two", got)
	}
	if got := get(t, c, 2, "a", "new"); got != "new" {
		t.Errorf("after a version change: got %q, want new", got)
	}
	if n, _ := c.Len(); n != 1 {
		t.Errorf("entries after a version change: got %d, want 1", n)
	}
	// A caller holding an older version never gets older bytes than it
	// asked for, and does not replace the newer entries.
	if got := get(t, c, 1, "a", "old"); got != "old" {
		t.Errorf("older version: got %q, want a fresh fill", got)
	}
	if got := get(t, c, 2, "a", "x"); got != "new" {
		t.Errorf("after an older fill: got %q, want new", got)
	}
}

func TestResponsesErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	c := cache.NewResponses(0)
	boom := errors.New("boom")
	if _, err := c.Get(context.Background(), 1, "a", func(context.Context) (*httpx.Payload, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v, want %v", err, boom)
	}
	if got := get(t, c, 1, "a", "ok"); got != "ok" {
		t.Errorf("after an error: got %q, want ok", got)
	}
}

func TestResponsesStayUnderTheirCap(t *testing.T) {
	t.Parallel()
	const maxBytes = 64 << 10
	c := cache.NewResponses(maxBytes)
	body := string(make([]byte, 1000))
	for i := range 1000 {
		get(t, c, 1, fmt.Sprint(i), body)
	}
	n, bytes := c.Len()
	if bytes > maxBytes {
		t.Errorf("bytes: got %d, want at most %d", bytes, maxBytes)
	}
	if n == 0 {
		t.Error("entries: got 0, want some kept")
	}
}

func TestResponsesFillOncePerKey(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := cache.NewResponses(0)
		var fills atomic.Int32
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				p, err := c.Get(context.Background(), 1, "k", func(context.Context) (*httpx.Payload, error) {
					fills.Add(1)
					time.Sleep(20 * time.Millisecond)
					return httpx.NewPayload([]byte("v")), nil
				})
				if err != nil || string(p.Plain) != "v" {
					t.Errorf("got %v, %v", p, err)
				}
			})
		}
		wg.Wait()
		if n := fills.Load(); n != 1 {
			t.Errorf("fills: got %d, want 1", n)
		}
	})
}

// A fill that fails is not shared: each request that waited for it
// fills on its own, so one cancelled request never fails the others.
func TestResponsesWaitersRefillAfterTheLeaderFails(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := cache.NewResponses(0)
		release := make(chan struct{})
		leaderDone := make(chan error, 1)
		go func() {
			_, err := c.Get(context.Background(), 1, "k", func(context.Context) (*httpx.Payload, error) {
				<-release
				return nil, errors.New("the leader's request went away")
			})
			leaderDone <- err
		}()
		synctest.Wait() // the leader is filling
		var own atomic.Int32
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				p, err := c.Get(context.Background(), 1, "k", func(context.Context) (*httpx.Payload, error) {
					own.Add(1)
					return httpx.NewPayload([]byte("v")), nil
				})
				if err != nil || string(p.Plain) != "v" {
					t.Errorf("waiter: got %v, %v; want its own fill", p, err)
				}
			})
		}
		synctest.Wait() // the waiters wait for the leader's fill
		if n := own.Load(); n != 0 {
			t.Fatalf("%d waiters filled before the leader failed, want 0", n)
		}
		close(release)
		wg.Wait()
		if err := <-leaderDone; err == nil {
			t.Error("the leader's failure was not returned to it")
		}
		if n := own.Load(); n != 3 {
			t.Errorf("waiters' own fills: got %d, want 3", n)
		}
	})
}
