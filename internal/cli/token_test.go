package cli_test

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"catalog/internal/postgres/pgtest"
)

var secretPattern = regexp.MustCompile(`^catalog_[0-9a-f]{64}\n$`)

func TestTokenCommands(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": migrated(t, filepath.Join(t.TempDir(), "tokens.db"))}

	bad := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", []string{"token"}, "create, list or revoke"},
		{"unknown subcommand", []string{"token", "rotate"}, `unknown subcommand "rotate"`},
		{"no name", []string{"token", "create", "--scope", "clips:write"}, "--name is required"},
		{"no scope", []string{"token", "create", "--name", "ci"}, "--scope give at least one of clips:write, movies:write"},
		{"unknown scope", []string{"token", "create", "--name", "ci", "--scope", "clips:read"}, `unknown scope "clips:read"`},
		{"revoke without id", []string{"token", "revoke"}, "give the ID of one token"},
		{"revoke bad id", []string{"token", "revoke", "x1"}, `"x1" is not a token ID`},
		{"revoke negative id", []string{"token", "revoke", "--", "-1"}, `"-1" is not a token ID`},
		{"list with argument", []string{"token", "list", "x"}, `unexpected argument "x"`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, env, "", tt.args...)
			wantExit(t, r, 2)
			if !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", r.err, tt.want)
			}
		})
	}

	r := run(t, env, "", "token", "create", "--name", "nightly import", "--scope", "movies:write, clips:write")
	wantExit(t, r, 0)
	if !secretPattern.MatchString(r.stdout) {
		t.Fatalf("create printed %q on stdout, want only the secret", r.stdout)
	}
	if !strings.Contains(r.stderr, "shown only this once") {
		t.Errorf("create does not warn that the secret is shown once: %q", r.stderr)
	}
	r = run(t, env, "", "token", "list")
	wantExit(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "nightly import") || !strings.Contains(lines[1], "clips:write,movies:write") ||
		!strings.HasSuffix(lines[1], "never      -") || strings.Contains(r.stdout, "catalog_") {
		t.Errorf("list: got %q, want one token with its scopes in order, never used, not revoked, and no secret", r.stdout)
	}
	wantExit(t, run(t, env, "", "token", "revoke", "1"), 0)
	r = run(t, env, "", "token", "revoke", "1")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), "no live token has ID 1") {
		t.Errorf("second revoke: %v", r.err)
	}
	r = run(t, env, "", "token", "list")
	lines = strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "REVOKED") || !strings.Contains(lines[1], "nightly import") ||
		!regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(lines[1]) {
		t.Errorf("list after revoke: got %q, want the token still listed with its revocation time", r.stdout)
	}
}

// Token ids are never reused: with tokens 1-3, revoking 2 and 3 and
// creating another gives 4, so a stale "token revoke 3" misses it.
func TestTokenIDsNeverReused(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			env := map[string]string{"CATALOG_DB": migrated(t, filepath.Join(t.TempDir(), "ids.db"))}
			if engine == "postgres" {
				env["CATALOG_DB"] = pgtest.EmptyDSN(t)
			}
			for range 3 {
				wantExit(t, run(t, env, "", "token", "create", "--name", "n", "--scope", "clips:write"), 0)
			}
			wantExit(t, run(t, env, "", "token", "revoke", "2"), 0)
			wantExit(t, run(t, env, "", "token", "revoke", "3"), 0)
			r := run(t, env, "", "token", "create", "--name", "new", "--scope", "clips:write")
			wantExit(t, r, 0)
			if !strings.Contains(r.stderr, `token 4 "new" created`) {
				t.Errorf("create after revoking 2 and 3: stderr %q, want token 4", r.stderr)
			}
			r = run(t, env, "", "token", "revoke", "3")
			wantExit(t, r, 1)
			if r := run(t, env, "", "token", "list"); !strings.Contains(r.stdout, "\n4 ") {
				t.Errorf("token 4 should be live after a stale revoke 3: %q", r.stdout)
			}
		})
	}
}

// A token revoked with the CLI is refused at once by every instance
// sharing the PostgreSQL database (contract 8).
func TestTokenRevokedOnEveryInstance(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": pgtest.EmptyDSN(t)}
	r := run(t, env, "", "token", "create", "--name", "script", "--scope", "clips:write")
	wantExit(t, r, 0)
	secret := strings.TrimSpace(r.stdout)
	a := "http://" + startServe(t, env, serveArgs()...).addrs.Clips.String()
	b := "http://" + startServe(t, env, serveArgs()...).addrs.Clips.String()

	post := func(base string) reply {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/clips", strings.NewReader(`{"title":"Scripted","iframe_url":"https://dai.ly/x8abc"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return reply{status: resp.StatusCode}
	}
	for _, base := range []string{a, b} {
		if r := post(base); r.status != http.StatusCreated {
			t.Fatalf("%s before revoke: got %d, want 201", base, r.status)
		}
	}
	wantExit(t, run(t, env, "", "token", "revoke", "1"), 0)
	for _, base := range []string{a, b} {
		if r := post(base); r.status != http.StatusUnauthorized {
			t.Errorf("%s after revoke: got %d, want 401", base, r.status)
		}
	}
}
