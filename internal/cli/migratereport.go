package cli

import (
	"context"
	"fmt"
	"io"

	"catalog/internal/catalog"
)

// maxListedProblems bounds the rows migrate names one by one; the
// count covers them all.
const maxListedProblems = 100

// reportInvalidRows names the stored rows that break the rules imports
// and forms now enforce (ids up to 2^32-1, the slug's alphabet, YYYY
// years, URLs without spaces, quotes or angle brackets). It only
// reports: the operator decides what each row should become, and
// migrate never rewrites data behind their back.
func reportInvalidRows(ctx context.Context, st catalog.Store, out io.Writer) error {
	found := 0
	note := func(kind string, id int64, fe catalog.FieldErrors) {
		if len(fe) == 0 {
			return
		}
		found++
		if found <= maxListedProblems {
			fmt.Fprintf(out, "%s %d: %s\n", kind, id, fe.Describe(": "))
		}
	}
	err := st.ExportMovies(ctx, func(m *catalog.Movie) error {
		note("movie", m.ID, catalog.MovieProblems(m))
		return nil
	})
	if err != nil {
		return fmt.Errorf("check movies: %w", err)
	}
	err = st.ExportClips(ctx, func(c *catalog.Clip) error {
		note("clip", c.ID, catalog.ClipProblems(c))
		return nil
	})
	if err != nil {
		return fmt.Errorf("check clips: %w", err)
	}
	if found > maxListedProblems {
		fmt.Fprintf(out, "... and %d more\n", found-maxListedProblems)
	}
	if found > 0 {
		fmt.Fprintf(out, "%d stored records break the validation rules (listed above, unchanged): fix them in the console or re-import them\n", found)
	}
	return nil
}
