package cli_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// migrate names the stored rows that break the validation rules written
// after them (a slug outside Slugify's alphabet, a year that is not
// YYYY, a URL holding quotes or angle brackets), and changes nothing.
func TestMigrateReportsInvalidRows(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "catalog.db")
	env := map[string]string{"CATALOG_DB": db}
	wantExit(t, run(t, env, "", "migrate"), 0)
	raw, err := sql.Open("sqlite", db+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	ctx := context.Background()
	wantExit(t, run(t, env, `{"name":"Fine","slug":"fine","year":"2019","poster1_url":"https://example.com/a.jpg"}
{"name":"Bad","slug":"bad","year":"2020"}
`, "import", "movies", "-"), 0)
	for _, q := range []string{
		`UPDATE movies SET slug = '../../etc/passwd', year = '1e400', poster1_url = 'https://x.example/"><script>' WHERE name = 'Bad'`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r := run(t, env, "", "migrate")
	wantExit(t, r, 0)
	for _, want := range []string{"movie 2: ", "slug: must use only lower-case letters", "year: must be a year as YYYY",
		"poster1_url: must be an absolute http or https URL without spaces, quotes or angle brackets",
		"1 stored records break the validation rules"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("migrate output does not say %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "movie 1:") {
		t.Errorf("migrate named a valid movie:\n%s", r.stdout)
	}
	var slug string
	if err := raw.QueryRowContext(ctx, `SELECT slug FROM movies WHERE name = 'Bad'`).Scan(&slug); err != nil || slug != "../../etc/passwd" {
		t.Errorf("the row after migrate: slug %q (%v), want it unchanged", slug, err)
	}
}
