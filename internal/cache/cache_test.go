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

// TestVersionsNeverAnswersFromAnEarlierRead checks the guarantee that
// makes batching safe: a caller gets a value read after it called.
func TestVersionsNeverAnswersFromAnEarlierRead(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var version atomic.Int64
		release := make(chan struct{})
		var reads atomic.Int32
		v := cache.NewVersions(func(ctx context.Context) (int64, error) {
			n := version.Load() // the read's snapshot is taken when it starts
			if reads.Add(1) == 1 {
				<-release // hold the first read in flight
			}
			return n, nil
		})
		first := make(chan int64)
		go func() {
			n, _ := v.Current(context.Background())
			first <- n
		}()
		synctest.Wait() // the first read is in flight
		// A write lands while the first read is in flight; a caller that
		// arrives now must see it.
		version.Store(2)
		second := make(chan int64)
		go func() {
			n, _ := v.Current(context.Background())
			second <- n
		}()
		synctest.Wait() // the second caller has joined
		close(release)
		if got := <-first; got != 0 {
			t.Errorf("first caller: got %d, want 0", got)
		}
		if got := <-second; got != 2 {
			t.Errorf("caller that arrived after the write: got %d, want 2", got)
		}
	})
}

// Callers that arrive while a read is in flight share the next one:
// fifty concurrent callers cost two reads.
func TestVersionsBatchesConcurrentCallers(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var reads atomic.Int32
		v := cache.NewVersions(func(ctx context.Context) (int64, error) {
			reads.Add(1)
			time.Sleep(5 * time.Millisecond)
			return 7, nil
		})
		var wg sync.WaitGroup
		const callers = 50
		for range callers {
			wg.Go(func() {
				if n, err := v.Current(context.Background()); n != 7 || err != nil {
					t.Errorf("got %d, %v; want 7, nil", n, err)
				}
			})
		}
		wg.Wait()
		if n := reads.Load(); n > 2 {
			t.Errorf("reads: got %d for %d concurrent callers, want at most 2", n, callers)
		}
	})
}

func TestVersionsReportsErrors(t *testing.T) {
	t.Parallel()
	boom := errors.New("database down")
	v := cache.NewVersions(func(ctx context.Context) (int64, error) { return 0, boom })
	if _, err := v.Current(context.Background()); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

func payload(s string) func(context.Context) (*httpx.Payload, error) {
	return func(context.Context) (*httpx.Payload, error) { return httpx.NewPayload([]byte(s)), nil }
}

func get(t *testing.T, c *cache.Responses, version int64, key, body string) string {
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
