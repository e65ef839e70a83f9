// Package memtune tunes the Go runtime's collector for a serve process.
// While a search index builds, it is a large heap; once settled, it is
// mapped from its file and the heap is small. What a GC percentage alone
// leaves on top of a heap is not only garbage but freed memory the
// runtime keeps for a while; a soft limit above the heap the percentage
// aims at makes the runtime give that memory back (and collect sooner)
// only when the process nears it, so the steady state pays little. BENCHMARKS.md
// has the figures behind the constants.
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
	// BuildGCPercent is the collector's target while an index builds,
	// unless the operator set GOGC: a build holds the catalog's titles
	// and lists in the heap, which the default 100 would let garbage
	// double before a collection.
	BuildGCPercent = 20
	// ServeGCPercent is the target once every index is settled. The
	// settled indexes are mapped from their files, so the heap holds
	// little more than the requests' garbage; a low percentage of so
	// small a heap would collect many times a second (BENCHMARKS.md),
	// and the soft limit bounds the heap anyway.
	ServeGCPercent = 100
	// Every is how often the soft limit follows the live heap.
	Every = 5 * time.Second
	// headroom is added to the limit, above the heap ServeGCPercent
	// aims at (twice the live heap), for the runtime's other memory and
	// the bursts of a request mix. A limit at or under that aim becomes
	// the collector's trigger: it then collects several times as often
	// and hands back memory the next requests fault in again, at a cost
	// a loaded server feels in every request (BENCHMARKS.md).
	headroom = 64 << 20
)

// Tune sets the collector for serve until ctx ends: BuildGCPercent and
// no memory limit while settled reports false (an index builds, its new
// lists and the old ones live side by side, and a build is never slowed
// by a limit); ServeGCPercent and a soft limit of twice the live heap
// plus 64 MiB, recomputed every interval, while it reports true.
// GOGC and GOMEMLIMIT set by the operator win. When ctx ends both are as
// they were found: they are the process's, and a test process runs many
// serves and other work after them.
func Tune(ctx context.Context, every time.Duration, settled func() bool) {
	ownPercent, ownLimit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if !ownPercent && !ownLimit {
		return
	}
	if ownPercent {
		defer debug.SetGCPercent(debug.SetGCPercent(BuildGCPercent))
	}
	if ownLimit {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		percent, limit := BuildGCPercent, int64(math.MaxInt64)
		if settled() {
			percent = ServeGCPercent
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				limit = int64(sample[0].Value.Uint64())*(100+ServeGCPercent)/100 + headroom
			}
		}
		if ownPercent {
			debug.SetGCPercent(percent)
		}
		if ownLimit {
			debug.SetMemoryLimit(limit)
		}
	}
}
