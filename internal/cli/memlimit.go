package cli

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"catalog/internal/search"
)

// Memory limit while serving: the search indexes are a large heap that
// lives as long as the process, and what a GC percentage alone leaves
// on top of it is not only garbage but freed memory the runtime keeps
// for a while. A soft limit 40 % above the live heap makes the
// runtime give that memory back (and collect sooner) only when the
// process nears it, so the steady state pays little: at 1M + 1M through
// deep pages and searches the peak RSS went from 471 to 443 MB with 1.5
// times (see BENCHMARKS.md for 1.4), where a GC percentage of 10 instead
// of 20 (423 MB) cost a quarter of the search throughput.
const (
	limitEvery    = 5 * time.Second
	limitHeadroom = 24 << 20 // for the bursts of a request mix
)

// limitMemory keeps the runtime's soft memory limit at 1.4 times the
// live heap plus limitHeadroom, recomputed every, once every
// index has settled; while one builds (its new lists and the old ones
// live side by side) there is no limit, so a build is never slowed by
// collections. GOMEMLIMIT set by the operator wins.
func limitMemory(ctx context.Context, every time.Duration, indexes ...*search.Live) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(every)
	defer t.Stop()
	// The limit is the process's: leave it as found when serve ends (a
	// test process runs many serves, and other work after them).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		limit := int64(math.MaxInt64)
		if settled(indexes) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				limit = int64(sample[0].Value.Uint64())*7/5 + limitHeadroom
			}
		}
		debug.SetMemoryLimit(limit)
	}
}

func settled(indexes []*search.Live) bool {
	for _, l := range indexes {
		if l != nil && !l.Settled() {
			return false
		}
	}
	return true
}
