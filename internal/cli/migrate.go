package cli

import (
	"context"
	"fmt"
)

// migrate is "catalog migrate": it brings the schema up to date, says
// what it applied, and lists stored records that break the rules.
func (p *Program) migrate(ctx context.Context, args []string) error {
	var db dbConfig
	f := newFlags("migrate", "", "Brings the database schema up to date and exits.")
	f.dbFlags(&db)
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	db.create = true
	st, applied, err := migrateStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(applied) == 0 {
		if _, err := fmt.Fprintln(p.Stdout, "database schema is up to date: nothing to apply"); err != nil {
			return err
		}
	} else {
		for _, name := range applied {
			fmt.Fprintln(p.Stdout, "applied", name)
		}
		if _, err := fmt.Fprintf(p.Stdout, "database schema migrated: %d applied\n", len(applied)); err != nil {
			return err
		}
	}
	return reportInvalidRows(ctx, st, p.Stdout)
}
