package cache

import "sync/atomic"

// Stats counts what one service's response cache did, for metrics. The
// counters are atomics so that the hit path takes no lock for them.
type Stats struct {
	Hits    atomic.Int64 // answers from a kept entry, or from another request's fill of the same key
	Misses  atomic.Int64 // fills run
	Bytes   atomic.Int64 // bytes kept now (as counted against the cap)
	Entries atomic.Int64 // responses kept now
}

// SetStats makes r count into st (nil: stop counting). Call it before
// serving.
func (r *Reads) SetStats(st *Stats) { r.stats = st }

func (st *Stats) hit() {
	if st != nil {
		st.Hits.Add(1)
	}
}

func (st *Stats) miss() {
	if st != nil {
		st.Misses.Add(1)
	}
}

// kept records the change of the kept bytes and entries.
func (st *Stats) kept(bytes int64, entries int) {
	if st != nil {
		st.Bytes.Add(bytes)
		st.Entries.Add(int64(entries))
	}
}
