package cli

import (
	"context"
	"fmt"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
	"catalog/internal/progress"
)

// seed is "catalog seed": synthetic clips and movies for demos and
// load tests.
func (p *Program) seed(ctx context.Context, args []string) error {
	var db dbConfig
	var clips, movies int
	var platformList, purgeURL string
	var pf progressFlags
	var force bool
	f := newFlags("seed", "", "Inserts synthetic sample clips and movies, for demos and benchmarks.")
	f.dbFlags(&db)
	f.progressFlags(&pf)
	f.intVar(&clips, "clips", "CATALOG_SEED_CLIPS", 0, "insert `N` clips")
	f.intVar(&movies, "movies", "CATALOG_SEED_MOVIES", 0, "insert `N` movies")
	f.platformsFlag(&platformList)
	f.purgeFlag(&purgeURL)
	f.boolVar(&force, "force", "", false, "add the synthetic records to a database that already holds records")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	switch {
	case clips < 0 || movies < 0:
		return usagef("seed: --clips and --movies must not be negative")
	case clips == 0 && movies == 0:
		return usagef("seed: give --clips N and/or --movies N")
	}
	platforms, err := parsePlatforms("seed", platformList)
	if err != nil {
		return err
	}
	st, closeStore, err := p.openAnnouncing(ctx, "seed", purgeURL, db)
	if err != nil {
		return err
	}
	defer closeStore()
	existing, err := refuseFilled(ctx, st, force)
	if err != nil {
		return err
	}
	start := time.Now()
	g := demo.NewGenerator(uint64(start.UnixNano()), platforms, start.Add(-time.Duration(clips)*time.Second), time.Second, int(existing))
	if err := p.seedKind(pf, "clips", clips, func(rep *progress.Reporter) error {
		return demo.SeedClips(ctx, countingClips{st, rep}, g, clips)
	}); err != nil {
		return err
	}
	return p.seedKind(pf, "movies", movies, func(rep *progress.Reporter) error {
		return demo.SeedMovies(ctx, countingMovies{st, rep}, g, movies)
	})
}

// seedKind runs one kind's seeding (none when n is 0) with its progress
// and its line of output.
func (p *Program) seedKind(pf progressFlags, kind string, n int, run func(*progress.Reporter) error) error {
	if n == 0 {
		return nil
	}
	start := time.Now()
	rep := p.progress(pf).Records("seed "+kind, int64(n))
	err := run(rep)
	rep.Close()
	if err != nil {
		return fmt.Errorf("seed %s: %s", kind, message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "seeded %d %s in %s\n", n, kind, time.Since(start).Round(time.Millisecond))
	return err
}

// refuseFilled returns the number of movies in st, or an error when st
// holds any clip or movie and force is not set: synthetic records mixed
// into a real catalog are hard to pick out again. With force, the
// numbering continues after what is there, so that id_codes and slugs
// stay unique and seeding twice adds rather than overwrites.
func refuseFilled(ctx context.Context, st catalog.Store, force bool) (int64, error) {
	movies, err := st.CountMovies(ctx)
	if err != nil {
		return 0, fmt.Errorf("seed: %s", message(err))
	}
	clips, err := st.CountClips(ctx)
	if err != nil {
		return 0, fmt.Errorf("seed: %s", message(err))
	}
	if (movies > 0 || clips > 0) && !force {
		return 0, fmt.Errorf("seed: the database already holds %d movies and %d clips; seed fills empty databases "+
			"for demos and load tests (give --force to add synthetic records anyway)", movies, clips)
	}
	return movies, nil
}
