package cli

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/search"
	"catalog/internal/testdb"
)

// TestLimitMemory: once the indexes are built, the soft memory limit is
// 1.4 times the live heap plus 24 MiB; before that there is none, so a
// build is never slowed; when serve ends the limit is as before; and
// GOMEMLIMIT set by the operator is left alone.
func TestLimitMemory(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })
	st := testdb.New(t).Open(t)
	sl := st.(catalog.SearchLog)
	l := search.NewLive(sl, catalog.SearchClips, nil)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	debug.SetMemoryLimit(math.MaxInt64)
	go limitMemory(ctx, 5*time.Millisecond, l)
	time.Sleep(50 * time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("limit %d before the index was built, want none", got)
	}

	// A live heap large enough that 1.4 and 1.5 times it differ plainly.
	ballast := make([]byte, 64<<20)
	defer runtime.KeepAlive(ballast)
	l.Start(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		got := debug.SetMemoryLimit(-1)
		// The tick may have read the live heap of an earlier collection:
		// wait for one that saw this one.
		want := live*7/5 + 24<<20
		if got != math.MaxInt64 && math.Abs(float64(got-want)) < 64<<10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("limit %d once built, want about %d (live heap %d)", got, want, live)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// When serve ends the limit is as it was before.
	cancel()
	for got := debug.SetMemoryLimit(-1); got != math.MaxInt64; got = debug.SetMemoryLimit(-1) {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after serve ended, want none again", got)
		}
		time.Sleep(time.Millisecond)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	limitCtx, stop := context.WithCancel(context.Background())
	defer stop()
	go limitMemory(limitCtx, 5*time.Millisecond, l)
	time.Sleep(50 * time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d with GOMEMLIMIT set, want the operator's (none changed)", got)
	}
}
