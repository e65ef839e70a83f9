package snapshot

import (
	"errors"
	"time"
)

// Build describes one build attempt, for Config.Observe.
type Build struct {
	Duration time.Duration
	Err      error // nil: the new snapshot is being served
	// Of the snapshot now served (zero before the first success).
	GeneratedAt time.Time
	GzipBytes   int64
	PlainBytes  int64
}

// report tells Config.Observe about a build that ran.
func (s *Service) report(start time.Time, err error) {
	if s.cfg.Observe == nil || errors.Is(err, errLockTaken) {
		return
	}
	b := Build{Duration: time.Since(start), Err: err}
	if cur := s.current.Load(); cur != nil {
		b.GeneratedAt, b.GzipBytes, b.PlainBytes = cur.generatedAt, cur.gzipSize, cur.plainSize
	}
	s.cfg.Observe(b)
}
