package cli_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/sqlite"
	"catalog/internal/testdb"
)

// admin unlock clears an administrator's failed logins (contract 1 and
// 5), on both engines: the PostgreSQL case runs when
// CATALOG_TEST_POSTGRES is set.
func TestAdminUnlock(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	db := migrated(t, filepath.Join(t.TempDir(), "catalog.db"))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no username", []string{"admin", "unlock", "--db", db}, "--username"},
		{"blank username", []string{"admin", "unlock", "--db", db, "--username", " "}, "--username"},
		{"stray argument", []string{"admin", "unlock", "--db", db, "--username", "alice", "bob"}, `"bob"`},
		{"unknown subcommand", []string{"admin", "lock", "--db", db}, `unknown subcommand "lock"`},
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

// admin list, password and delete: operators manage administrators, and
// a reset or a delete ends the administrator's sessions at once.
func TestAdminManage(t *testing.T) {
	t.Parallel()
	tdb := testdb.New(t)
	env := map[string]string{"CATALOG_DB": tdb.DSN()}
	wantExit(t, run(t, env, "a long enough password\n", "admin", "create", "--username", "alice"), 0)
	wantExit(t, run(t, env, "another long password\n", "admin", "create", "--username", "bob"), 0)
	r := run(t, env, "", "admin", "list")
	wantExit(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "alice ") || !strings.HasPrefix(lines[2], "bob ") || strings.Contains(r.stdout, "$2") {
		t.Errorf("admin list: got %q, want alice and bob and no hashes", r.stdout)
	}

	st := tdb.Open(t)
	ctx := context.Background()
	alice, err := st.AdminByUsername(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	if err := st.CreateSession(ctx, catalog.Session{TokenHash: "s1", AdminID: alice.ID, CreatedAt: now, LastSeen: now}); err != nil {
		t.Fatal(err)
	}
	r = run(t, env, "short\n", "admin", "password", "--username", "alice")
	wantExit(t, r, 1)
	r = run(t, env, "a brand new password\n", "admin", "password", "--username", "alice")
	wantExit(t, r, 0)
	if !strings.Contains(r.stdout, "1 sessions ended") {
		t.Errorf("admin password: stdout %q, want 1 session ended", r.stdout)
	}
	if _, err := st.SessionByTokenHash(ctx, "s1"); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("alice's session after the reset: %v, want it gone", err)
	}
	alice, _ = st.AdminByUsername(ctx, "alice")
	if bcrypt.CompareHashAndPassword([]byte(alice.PasswordHash), []byte("a brand new password")) != nil {
		t.Errorf("the new password does not match the stored hash")
	}
	r = run(t, env, "a brand new password\n", "admin", "password", "--username", "carol")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), `no administrator "carol"`) {
		t.Errorf("password for a stranger: %v", r.err)
	}

	// bob's console tokens go with him, and the delete says how many.
	bob, err := st.AdminByUsername(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"bob-1", "bob-2"} {
		if err := st.CreateToken(ctx, &catalog.APIToken{Name: h, Scopes: []string{catalog.ScopeMoviesWrite}, TokenHash: h, AdminID: bob.ID}); err != nil {
			t.Fatal(err)
		}
	}
	r = run(t, env, "", "admin", "delete", "--username", "bob")
	wantExit(t, r, 0)
	if !strings.Contains(r.stdout, "2 API token(s) they made revoked") {
		t.Errorf("admin delete: stdout %q, want it to say 2 tokens were revoked", r.stdout)
	}
	if _, err := st.TokenByHash(ctx, "bob-1"); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("bob's token after his deletion: %v, want it revoked", err)
	}
	r = run(t, env, "", "admin", "delete", "--username", "bob")
	wantExit(t, r, 1)
	wantExit(t, run(t, env, "", "admin", "delete"), 2)
	if r := run(t, env, "", "admin", "list"); strings.Contains(r.stdout, "bob") || !strings.Contains(r.stdout, "alice") {
		t.Errorf("admin list after deleting bob: %q", r.stdout)
	}
}
