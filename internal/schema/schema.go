// Package schema runs an engine's embedded goose migrations, the one
// way both engines bring a database up to date. A database that a newer
// binary migrated is refused before anything runs: this binary's
// queries may not match its tables (a dropped index, a changed column),
// so serving or writing it could fail or lose data.
package schema

import (
	"context"
	"path"

	"github.com/pressly/goose/v3"

	"catalog/internal/catalog"
)

// Up checks that the database's schema is not newer than the
// migrations p knows, then applies those it lacks, each in its own
// transaction, and returns their file names in the order applied (none:
// already up to date).
func Up(ctx context.Context, p *goose.Provider) ([]string, error) {
	if err := Check(ctx, p); err != nil {
		return nil, err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, err
	}
	applied := make([]string, 0, len(results))
	for _, r := range results {
		applied = append(applied, path.Base(r.Source.Path))
	}
	return applied, nil
}

// Check returns an EINVALID error with a one-line reason when the
// database holds a migration above the highest that p knows.
func Check(ctx context.Context, p *goose.Provider) error {
	sources := p.ListSources()
	if len(sources) == 0 {
		return nil
	}
	known := sources[len(sources)-1].Version
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return err
	}
	if current > known {
		return catalog.Errorf(catalog.EINVALID,
			"the database schema is at version %d, newer than this catalog binary knows (%d): run the newer binary, "+
				"or restore the backup taken before its migrate", current, known)
	}
	return nil
}
