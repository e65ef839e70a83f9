// Package memtune tunes the Go runtime's collector for a serve process,
// whose search indexes are a large heap that lives as long as the
// process. What a GC percentage alone leaves on top of such a heap is
// not only garbage but freed memory the runtime keeps for a while; a
// soft limit a little above the live heap makes the runtime give that
// memory back (and collect sooner) only when the process nears it, so
// the steady state pays little. BENCHMARKS.md has the figures behind
// the constants.
package memtune

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// GCPercent is the collector's target while serving, unless the
	// operator set GOGC: the indexes have few pointers (a cycle marks
	// little of them), and the default 100 lets garbage grow to their
	// size again before a collection.
	GCPercent = 20
	// Every is how often the soft limit follows the live heap.
	Every = 5 * time.Second
	// headroom is added to the limit for the bursts of a request mix.
	headroom = 24 << 20
)

// SetGCPercent sets GCPercent unless GOGC is set.
func SetGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
}

// LimitMemory keeps the runtime's soft memory limit at 1.4 times the
// live heap plus 24 MiB, recomputed every interval while settled reports
// true. While it reports false (an index builds, its new lists and the
// old ones live side by side) there is no limit, so a build is never
// slowed by collections. GOMEMLIMIT set by the operator wins. When ctx
// ends the limit is as it was found: it is the process's, and a test
// process runs many serves and other work after them.
func LimitMemory(ctx context.Context, every time.Duration, settled func() bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(every)
	defer t.Stop()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		limit := int64(math.MaxInt64)
		if settled() {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				limit = int64(sample[0].Value.Uint64())*7/5 + headroom
			}
		}
		debug.SetMemoryLimit(limit)
	}
}
