package snapshot

import (
	"context"
	"errors"
	"time"

	"catalog/internal/catalog"
)

// Status is what the operators' console shows of the snapshot
// (contract 8): the last build, the next one, the last failure.
type Status struct {
	Ready       bool // a snapshot is being served
	GeneratedAt time.Time
	Duration    time.Duration // of the build that made the served file
	Movies      int64
	GzipBytes   int64
	PlainBytes  int64
	NextBuild   time.Time
	Building    bool
	// LastError is the last build's failure, "" after a success; a build
	// deferred because another instance holds the lock is not an error.
	LastError   string
	LastErrorAt time.Time
	Deferred    bool // the last attempt found another instance building
}

// Status reports the snapshot's state; it is cheap and safe to call from
// any goroutine.
func (s *Service) Status() Status {
	s.builds.Lock()
	st := s.builds.last
	s.builds.Unlock()
	st.NextBuild = time.Unix(0, s.nextRefresh.Load()).UTC()
	if b := s.current.Load(); b != nil {
		st.Ready, st.GeneratedAt, st.GzipBytes, st.PlainBytes = true, b.generatedAt, b.gzipSize, b.plainSize
	}
	return st
}

// Rebuild asks the build loop to build now instead of at the next
// scheduled time. It does not wait; a request while one is pending is
// merged with it. On PostgreSQL the build still takes the shared lock,
// so a rebuild while another instance builds is deferred, not doubled.
func (s *Service) Rebuild() {
	select {
	case s.rebuildNow <- struct{}{}:
	default:
	}
}

// started, finished record one attempt for Status.
func (s *Service) started() {
	s.builds.Lock()
	s.builds.last.Building = true
	s.builds.Unlock()
}

func (s *Service) finished(err error, duration time.Duration, movies int64) {
	s.builds.Lock()
	defer s.builds.Unlock()
	last := &s.builds.last
	last.Building = false
	last.Deferred = errors.Is(err, errLockTaken)
	switch {
	case err == nil:
		last.Duration, last.Movies, last.LastError = duration, movies, ""
	case !last.Deferred:
		last.LastError, last.LastErrorAt = err.Error(), time.Now().UTC()
	}
}

// countingStore counts the movies a build streams, for Status.
type countingStore struct {
	catalog.MovieStore
	n int64
}

func (c *countingStore) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	return c.MovieStore.EachMovie(ctx, func(m *catalog.Movie) error {
		c.n++
		return fn(m)
	})
}
