package snapshot

import (
	"context"
	"errors"
	"sync"
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

// buildLog is the part of Status that the build loop writes.
type buildLog struct {
	mu          sync.Mutex
	building    bool
	duration    time.Duration
	movies      int64
	lastError   string
	lastErrorAt time.Time
	deferred    bool
}

// Status reports the snapshot's state; it is cheap and safe to call from
// any goroutine.
func (s *Service) Status() Status {
	st := Status{NextBuild: time.Unix(0, s.nextRefresh.Load()).UTC()}
	if b := s.current.Load(); b != nil {
		st.Ready, st.GeneratedAt, st.GzipBytes, st.PlainBytes = true, b.generatedAt, b.gzipSize, b.plainSize
	}
	s.builds.mu.Lock()
	defer s.builds.mu.Unlock()
	st.Building, st.Duration, st.Movies = s.builds.building, s.builds.duration, s.builds.movies
	st.LastError, st.LastErrorAt, st.Deferred = s.builds.lastError, s.builds.lastErrorAt, s.builds.deferred
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
	s.builds.mu.Lock()
	s.builds.building = true
	s.builds.mu.Unlock()
}

func (s *Service) finished(err error, duration time.Duration, movies int64) {
	s.builds.mu.Lock()
	defer s.builds.mu.Unlock()
	s.builds.building = false
	s.builds.deferred = errors.Is(err, errLockTaken)
	switch {
	case err == nil:
		s.builds.duration, s.builds.movies, s.builds.lastError = duration, movies, ""
	case !s.builds.deferred:
		s.builds.lastError, s.builds.lastErrorAt = err.Error(), time.Now().UTC()
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
