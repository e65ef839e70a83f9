package memtune

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Until the indexes settle there is no limit, so a build is never
// slowed; once they have, the soft limit is 1.4 times the live heap
// plus 24 MiB; when serve ends the limit is as it was before.
func TestLimitMemory(t *testing.T) {
	before := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	// A live heap large enough that 1.4 and 1.5 times it differ plainly.
	ballast := make([]byte, 64<<20)
	defer runtime.KeepAlive(ballast)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		var settled atomic.Bool
		go LimitMemory(ctx, 5*time.Second, settled.Load)
		time.Sleep(6 * time.Second)
		synctest.Wait()
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Fatalf("limit %d before the indexes settled, want none", got)
		}

		settled.Store(true)
		runtime.GC()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		time.Sleep(5 * time.Second)
		synctest.Wait()
		got, want := debug.SetMemoryLimit(-1), live*7/5+24<<20
		if math.Abs(float64(got-want)) > 1<<20 {
			t.Fatalf("limit %d once settled, want about %d (live heap %d)", got, want, live)
		}

		cancel()
		synctest.Wait()
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("limit %d after serve ended, want none again", got)
		}
	})
}

// GOMEMLIMIT set by the operator is left alone.
func TestLimitMemoryLeavesGOMEMLIMIT(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go LimitMemory(ctx, 5*time.Second, func() bool { return true })
		time.Sleep(11 * time.Second)
		synctest.Wait()
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("limit %d with GOMEMLIMIT set, want the operator's (none changed)", got)
		}
	})
}

func TestSetGCPercent(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	t.Setenv("GOGC", "")
	SetGCPercent()
	if got := debug.SetGCPercent(100); got != 20 {
		t.Errorf("GC percent %d, want 20", got)
	}
	t.Setenv("GOGC", "50")
	SetGCPercent()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with GOGC set, want it left alone", got)
	}
}
