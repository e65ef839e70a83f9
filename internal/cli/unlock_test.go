package cli_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/sqlite"
)

// admin unlock clears an administrator's failed logins (contract 1 and
// 5), on both engines: the PostgreSQL case runs when
// CATALOG_TEST_POSTGRES is set.
func TestAdminUnlock(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			var dsn string
			var st catalog.Store
			if engine == "postgres" {
				dsn = pgtest.EmptyDSN(t)
			} else {
				dsn = migrated(t, filepath.Join(t.TempDir(), "catalog.db"))
			}
			env := map[string]string{"CATALOG_DB": dsn}
			wantExit(t, run(t, env, "a long enough password\n", "admin", "create", "--username", "alice"), 0)
			var err error
			if engine == "postgres" {
				st, err = postgres.Open(ctx, dsn, postgres.Options{})
			} else {
				st, err = sqlite.Open(ctx, dsn, sqlite.Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })

			// Strangers hold alice's username: 100 failures from 20
			// addresses, 5 each; another username failed once too.
			now := time.Now()
			for i := range 20 {
				for range 5 {
					if err := st.ReserveLogin(ctx, "alice", fmt.Sprintf("203.0.113.%d", i), now); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := st.ReserveLogin(ctx, "mallory", "203.0.113.0", now); err != nil {
				t.Fatal(err)
			}
			if err := st.ReserveLogin(ctx, "alice", "192.0.2.1", now); catalog.ErrorCode(err) != catalog.ETOOMANY {
				t.Fatalf("before unlock: got %v, want %q", err, catalog.ETOOMANY)
			}

			r := run(t, env, "", "admin", "unlock", "--username", "alice")
			wantExit(t, r, 0)
			if want := "administrator \"alice\" unlocked: 100 failed logins cleared\n"; r.stdout != want {
				t.Errorf("stdout: got %q, want %q", r.stdout, want)
			}
			for _, addr := range []string{"192.0.2.1", "203.0.113.0"} {
				if err := st.ReserveLogin(ctx, "alice", addr, now); err != nil {
					t.Errorf("after unlock, from %s: got %v, want the attempt counted", addr, err)
				}
			}
			// Other usernames keep their counts.
			if n, err := st.UnlockLogin(ctx, "mallory"); err != nil || n != 1 {
				t.Errorf("mallory's failures: got %d, %v; want 1", n, err)
			}
			r = run(t, env, "", "admin", "unlock", "--username", "alice")
			wantExit(t, r, 0)
			if !strings.Contains(r.stdout, ": 2 failed logins cleared") {
				t.Errorf("second unlock: got %q, want 2 cleared", r.stdout)
			}

			r = run(t, env, "", "admin", "unlock", "--username", "carol")
			wantExit(t, r, 1)
			if !strings.Contains(r.err.Error(), `no administrator "carol"`) {
				t.Errorf("unknown administrator: got %q", r.err)
			}
		})
	}
}

func TestAdminUnlockUsage(t *testing.T) {
	db := migrated(t, filepath.Join(t.TempDir(), "catalog.db"))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no username", []string{"admin", "unlock", "--db", db}, "--username"},
		{"blank username", []string{"admin", "unlock", "--db", db, "--username", " "}, "--username"},
		{"stray argument", []string{"admin", "unlock", "--db", db, "--username", "alice", "bob"}, `"bob"`},
		{"unknown subcommand", []string{"admin", "lock", "--db", db}, `"unlock"`},
		// A name over 64 bytes could never log in (contract 5).
		{"65-byte name", []string{"admin", "create", "--db", db, "--username", strings.Repeat("a", 65)}, "64 bytes"},
		{"33 two-byte letters", []string{"admin", "create", "--db", db, "--username", strings.Repeat("é", 33)}, "64 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, "a long enough password\n", tc.args...)
			wantExit(t, r, 2)
			if !strings.Contains(r.err.Error(), tc.want) {
				t.Errorf("got %q, want it to mention %q", r.err, tc.want)
			}
		})
	}
	wantExit(t, run(t, nil, "a long enough password\n", "admin", "create", "--db", db, "--username", strings.Repeat("é", 32)), 0)
	r := run(t, nil, "", "admin", "unlock", "-h")
	wantExit(t, r, 0)
	if !strings.Contains(r.stdout, "catalog admin unlock") {
		t.Errorf("admin unlock -h: got %q", r.stdout)
	}
}
