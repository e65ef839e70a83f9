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

// current reads the GC percent and the memory limit without changing
// them.
func current() (percent int, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// keep restores the process's GC percent and limit after the test.
func keep(t *testing.T) {
	percent, limit := current()
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// Until the indexes settle the collector runs at BuildGCPercent with no
// limit, so a build is never slowed; once they have, at ServeGCPercent
// with a soft limit of twice the live heap plus 64 MiB; when serve
// ends both are as they were before.
func TestTune(t *testing.T) {
	keep(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(77)
	debug.SetMemoryLimit(math.MaxInt64 - 1)
	// A live heap large enough that 2 and 2.1 times it differ plainly.
	ballast := make([]byte, 64<<20)
	defer runtime.KeepAlive(ballast)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		var settled atomic.Bool
		go Tune(ctx, 5*time.Second, settled.Load)
		time.Sleep(6 * time.Second)
		synctest.Wait()
		if percent, limit := current(); percent != BuildGCPercent || limit != math.MaxInt64 {
			t.Fatalf("GC percent %d, limit %d before the indexes settled, want %d and none", percent, limit, BuildGCPercent)
		}

		settled.Store(true)
		runtime.GC()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		time.Sleep(5 * time.Second)
		synctest.Wait()
		percent, limit := current()
		if want := live*2 + 64<<20; math.Abs(float64(limit-want)) > 1<<20 {
			t.Fatalf("limit %d once settled, want about %d (live heap %d)", limit, want, live)
		}
		if percent != ServeGCPercent {
			t.Fatalf("GC percent %d once settled, want %d", percent, ServeGCPercent)
		}

		settled.Store(false) // a rebuild after a gap in the search log
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if percent, limit := current(); percent != BuildGCPercent || limit != math.MaxInt64 {
			t.Fatalf("GC percent %d, limit %d while an index rebuilds, want %d and none", percent, limit, BuildGCPercent)
		}

		cancel()
		synctest.Wait()
		if percent, limit := current(); percent != 77 || limit != math.MaxInt64-1 {
			t.Errorf("GC percent %d, limit %d after serve ended, want 77 and %d again", percent, limit, int64(math.MaxInt64-1))
		}
	})
}

// GOGC and GOMEMLIMIT set by the operator are left alone, each on its
// own.
func TestTuneLeavesTheOperatorsSettings(t *testing.T) {
	for _, tc := range []struct {
		name, gogc, gomemlimit string
	}{
		{"GOGC", "50", ""},
		{"GOMEMLIMIT", "", "1GiB"},
		{"both", "50", "1GiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep(t)
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.gomemlimit)
			debug.SetGCPercent(50)
			debug.SetMemoryLimit(1 << 30)
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				go Tune(ctx, 5*time.Second, func() bool { return true })
				time.Sleep(11 * time.Second)
				synctest.Wait()
				percent, limit := current()
				if tc.gogc != "" && percent != 50 {
					t.Errorf("GC percent %d with GOGC set, want the operator's 50", percent)
				}
				if tc.gogc == "" && percent != ServeGCPercent {
					t.Errorf("GC percent %d without GOGC, want %d", percent, ServeGCPercent)
				}
				if tc.gomemlimit != "" && limit != 1<<30 {
					t.Errorf("limit %d with GOMEMLIMIT set, want the operator's 1 GiB", limit)
				}
				if tc.gomemlimit == "" && limit == 1<<30 {
					t.Errorf("limit left at 1 GiB without GOMEMLIMIT")
				}
			})
		})
	}
}
