package cli_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/postgres/pgtest"
)

// migrate refolds search text stored under an older fold (contract 11):
// it rewrites the rows whose text changed, says how many, and records
// the fold, so that the next migrate has nothing to do. The older fold
// is simulated by writing the text as fold 1 would (the title in lower
// case) and marking the database as of fold 1.
func TestMigrateRefoldsSearchText(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "refold.db")
			if engine == "postgres" {
				dsn = pgtest.EmptyDSN(t)
			}
			env := map[string]string{"CATALOG_DB": dsn}
			r := run(t, env, "", "migrate")
			wantExit(t, r, 0)
			if strings.Contains(r.stdout, "refolded") {
				t.Errorf("migrate of an empty catalog speaks of a refold:\n%s", r.stdout)
			}
			wantExit(t, run(t, env, `{"title":"Café Tiếng Việt","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"}
{"title":"plain ascii","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"}
`, "import", "clips", "-"), 0)
			wantExit(t, run(t, env, `{"name":"Summer","slug":"summer","id_code":"ABC-123"}
{"name":"愛情","slug":"aiqing"}
`, "import", "movies", "-"), 0)
			// The title keys (migration 00022 adds them empty) are
			// made by the refold too.
			sqlExec(t, engine, dsn, `UPDATE clips SET title_fold = lower(title)`, `UPDATE movies SET name_fold = lower(name), title_key = ''`,
				`UPDATE meta SET search_fold = 1`)

			r = run(t, env, "", "migrate")
			wantExit(t, r, 0)
			want := "applied search text refolded to fold version 2: 1 of 2 clips and 2 of 2 movies changed\n"
			if !strings.Contains(r.stdout, want) {
				t.Errorf("migrate after an older fold: stdout %q, want %q", r.stdout, want)
			}
			clips := sqlStrings(t, engine, dsn, `SELECT title_fold FROM clips ORDER BY id`)
			if want := []string{"cafe tieng viet", "plain ascii"}; !slices.Equal(clips, want) {
				t.Errorf("clips' title_fold %q, want %q", clips, want)
			}
			movies := sqlStrings(t, engine, dsn, `SELECT name_fold FROM movies ORDER BY id`)
			if want := []string{catalog.SearchText("Summer", "ABC-123"), catalog.SearchText("愛情", "")}; !slices.Equal(movies, want) {
				t.Errorf("movies' name_fold %q, want %q", movies, want)
			}
			keys := sqlStrings(t, engine, dsn, `SELECT title_key FROM movies ORDER BY id`)
			if want := []string{"summer", "爱情"}; !slices.Equal(keys, want) {
				t.Errorf("movies' title_key %q, want %q", keys, want)
			}
			r = run(t, env, "", "migrate")
			wantExit(t, r, 0)
			if r.stdout != "database schema is up to date: nothing to apply\n" {
				t.Errorf("migrate after the refold: stdout %q, want only the up-to-date line", r.stdout)
			}
		})
	}
}

// sqlExec runs statements on the database dsn of engine, outside the
// program.
func sqlExec(t *testing.T, engine, dsn string, statements ...string) {
	t.Helper()
	ctx := context.Background()
	if engine == "postgres" {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		for _, q := range statements {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		return
	}
	db, err := sql.Open("sqlite", dsn+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range statements {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// sqlStrings is the one text column of query's rows.
func sqlStrings(t *testing.T, engine, dsn, query string) []string {
	t.Helper()
	ctx := context.Background()
	if engine == "postgres" {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		rows, err := conn.Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
