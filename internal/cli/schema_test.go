package cli_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"catalog/internal/postgres/pgtest"
)

// migrate says what it applied, and "up to date" only when it applied
// nothing.
func TestMigrateListsWhatItApplied(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": filepath.Join(t.TempDir(), "m.db")}
	r := run(t, env, "", "migrate")
	wantExit(t, r, 0)
	for _, want := range []string{"applied 00001_init.sql\n", "applied 00005_api_tokens.sql\n", "applied 00007_token_ids.sql\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("first migrate: stdout %q, want %q", r.stdout, want)
		}
	}
	if strings.Contains(r.stdout, "up to date") {
		t.Errorf("first migrate says up to date after applying migrations: %q", r.stdout)
	}
	r = run(t, env, "", "migrate")
	wantExit(t, r, 0)
	if r.stdout != "database schema is up to date: nothing to apply\n" {
		t.Errorf("second migrate: stdout %q, want only the up-to-date line", r.stdout)
	}
}

// A binary refuses a database that a newer binary migrated, on every
// command, with a one-line reason: its queries may not fit the newer
// tables. The newer migration is simulated by recording version 99999.
func TestNewerSchemaRefused(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "newer.db")
			if engine == "postgres" {
				dsn = pgtest.EmptyDSN(t)
			}
			env := map[string]string{"CATALOG_DB": dsn}
			wantExit(t, run(t, env, "", "migrate"), 0)
			recordVersion(t, engine, dsn, 99999)
			in := filepath.Join(t.TempDir(), "in.jsonl")
			os.WriteFile(in, []byte(`{"name":"x"}`+"\n"), 0o600)
			for _, args := range [][]string{
				{"migrate"},
				append([]string{"serve"}, serveArgs()...),
				{"token", "list"},
				{"import", "movies", in},
				{"export", "movies"},
				{"admin", "unlock", "--username", "alice"},
			} {
				r := run(t, env, "", args...)
				wantExit(t, r, 1)
				if !strings.Contains(r.err.Error(), "schema is at version 99999, newer than this catalog binary knows") {
					t.Errorf("%s: error %q, want the newer-schema reason", strings.Join(args, " "), r.err)
				}
			}
		})
	}
}

// recordVersion marks migration version as applied, as a newer binary's
// migrate would. On PostgreSQL the record is removed when the test ends,
// because the test databases are pooled and reused by later tests.
func recordVersion(t *testing.T, engine, dsn string, version int) {
	t.Helper()
	const insert = `INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, true)`
	if engine == "postgres" {
		exec := func(query string) error {
			conn, err := pgx.Connect(context.Background(), dsn)
			if err != nil {
				return err
			}
			defer conn.Close(context.Background())
			_, err = conn.Exec(context.Background(), query, version)
			return err
		}
		if err := exec(insert); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := exec(`DELETE FROM goose_db_version WHERE version_id = $1`); err != nil {
				t.Errorf("remove the recorded version: %v", err)
			}
		})
		return
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(strings.Replace(insert, "$1", "?", 1), version); err != nil {
		t.Fatal(err)
	}
}

// Commands other than serve and migrate refuse a SQLite file that does
// not exist, naming it, and create nothing; serve --demo refuses --db.
func TestMissingDatabaseRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.db")
	env := map[string]string{"CATALOG_DB": missing}
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"name":"x"}`+"\n"), 0o600)
	for _, args := range [][]string{
		{"token", "list"},
		{"token", "create", "--name", "n", "--scope", "clips:write"},
		{"token", "revoke", "1"},
		{"export", "movies"},
		{"import", "movies", in},
		{"seed", "--movies", "1"},
		{"snapshot", "--out", filepath.Join(dir, "s.json")},
		{"admin", "unlock", "--username", "alice"},
	} {
		r := run(t, env, "a long enough password\n", args...)
		wantExit(t, r, 1)
		if !strings.Contains(r.err.Error(), "database file "+missing+" does not exist") {
			t.Errorf("%s: error %q, want it to name the missing file", strings.Join(args, " "), r.err)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Fatalf("%s created %s", strings.Join(args, " "), missing)
		}
	}
	r := run(t, env, "", "admin", "create", "--username", "alice")
	if r.err == nil {
		t.Errorf("admin create on a missing database succeeded")
	}

	r = run(t, nil, "", "serve", "--demo", "--db", filepath.Join(dir, "real.db"))
	wantExit(t, r, 2)
	if !strings.Contains(r.err.Error(), "--demo serves a temporary database") {
		t.Errorf("serve --demo --db: error %q", r.err)
	}
}
