package cli

import (
	"context"
	"os"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/progress"
)

// progressFlags are the flags of the commands that report progress
// (contract 7): import, seed, snapshot and export.
type progressFlags struct {
	quiet bool
	every time.Duration
}

func (f *flags) progressFlags(c *progressFlags) {
	f.boolVar(&c.quiet, "quiet", "CATALOG_QUIET", false, "print only the summary, no progress")
	f.durationVar(&c.every, "progress-every", "CATALOG_PROGRESS_EVERY", progress.DefaultInterval,
		"time between progress lines when standard error is not a terminal")
}

// progress is where the command's progress goes: standard error, as a
// live bar when that is a terminal.
func (p *Program) progress(c progressFlags) progress.Config {
	return progress.Config{Out: p.Stderr, Terminal: isTerminal(p.Stderr), Quiet: c.quiet, Interval: c.every}
}

// fileSize is the size of the input file, 0 when unknown (standard
// input, or a file that cannot be read: the import reports that).
func fileSize(file string) int64 {
	if file == "-" {
		return 0
	}
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// countingClips reports every clip a seed writes.
type countingClips struct {
	catalog.ClipStore
	rep *progress.Reporter
}

func (s countingClips) ImportClips(ctx context.Context, clips []catalog.Clip) error {
	err := s.ClipStore.ImportClips(ctx, clips)
	if err == nil {
		s.rep.Add(int64(len(clips)))
	}
	return err
}

// countingMovies reports every movie a seed writes or a snapshot reads.
type countingMovies struct {
	catalog.MovieStore
	rep *progress.Reporter
}

func (s countingMovies) UpsertMovies(ctx context.Context, movies []catalog.Movie) error {
	err := s.MovieStore.UpsertMovies(ctx, movies)
	if err == nil {
		s.rep.Add(int64(len(movies)))
	}
	return err
}

// EachMovie counts from zero on every walk: the snapshot writer walks
// again when the catalog changed under it.
func (s countingMovies) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	s.rep.Restart()
	return s.MovieStore.EachMovie(ctx, func(m *catalog.Movie) error {
		s.rep.Add(1)
		return fn(m)
	})
}
