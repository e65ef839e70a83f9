package cache_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"catalog/internal/cache"
)

// A deep page asked for while its order's first build runs waits for
// the build and is served by a seek, instead of running the OFFSET
// query (issue 11: at 10M that query outlasted the read timeout); a
// shallower page falls back at once; a page whose request ends first
// falls back too; a failed first build releases the waiters.
func TestSeekPageWaitsForFirstBuild(t *testing.T) {
	const n = cache.WaitMinOffset + 100
	walk := func(release <-chan struct{}, fail bool) func(ctx context.Context, fn func(int64)) (int64, error) {
		return func(ctx context.Context, fn func(int64)) (int64, error) {
			<-release
			if fail {
				return 0, errors.New("walk failed")
			}
			for id := int64(n); id > 0; id-- {
				fn(id)
			}
			return 7, nil
		}
	}
	seek := func(from, skip int64) ([]int64, error) { return []int64{from - skip}, nil }
	ctx := context.Background()

	release := make(chan struct{})
	o := cache.NewOrder(walk(release, false), nil)
	o.Refresh()
	if _, _, ok, _ := cache.SeekPage(ctx, o, 7, cache.WaitMinOffset-1, seek); ok {
		t.Error("a page above WaitMinOffset during the first build: got a seek, want the fallback at once")
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, _, ok, _ := cache.SeekPage(short, o, 7, cache.WaitMinOffset, seek); ok {
		t.Error("a deep page whose request ended during the first build: got a seek, want the fallback")
	}
	type result struct {
		page  []int64
		total int64
		ok    bool
	}
	done := make(chan result, 1)
	go func() {
		page, total, ok, _ := cache.SeekPage(ctx, o, 7, cache.WaitMinOffset, seek)
		done <- result{page, total, ok}
	}()
	select {
	case r := <-done:
		t.Fatalf("deep page before the first build ended: got %+v, want it to wait", r)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	r := <-done
	if !r.ok || r.total != n || len(r.page) != 1 || r.page[0] != n-cache.WaitMinOffset {
		t.Errorf("deep page after the first build: got %+v, want a seek to id %d of %d", r, n-cache.WaitMinOffset, n)
	}

	failing := make(chan struct{})
	o = cache.NewOrder(walk(failing, true), nil)
	o.Refresh()
	go func() {
		_, _, ok, _ := cache.SeekPage(ctx, o, 7, cache.WaitMinOffset, seek)
		done <- result{ok: ok}
	}()
	close(failing)
	if r := <-done; r.ok {
		t.Error("deep page after a failed first build: got a seek, want the fallback")
	}
}
