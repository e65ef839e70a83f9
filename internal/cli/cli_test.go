package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/cli"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/testdb"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines, which
// a test can wait on (waitFor).
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed by the next Write; nil when nobody waits
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote != nil {
		close(s.wrote)
		s.wrote = nil
	}
	return s.b.Write(p)
}

// waitFor returns the text written so far once cond holds for it. Every
// write wakes it; the 30 s deadline only catches a hang.
func (s *syncBuffer) waitFor(tb testing.TB, what string, cond func(text string) bool) string {
	tb.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		text := s.b.String()
		if s.wrote == nil {
			s.wrote = make(chan struct{})
		}
		wrote := s.wrote
		s.mu.Unlock()
		if cond(text) {
			return text
		}
		select {
		case <-wrote:
		case <-deadline:
			tb.Fatalf("%s: not in the log within 30 s:\n%s", what, text)
		}
	}
}

// waitLog waits until the log holds n lines whose message starts with
// msg.
func (s *syncBuffer) waitLog(tb testing.TB, n int, msg string) {
	tb.Helper()
	s.waitFor(tb, fmt.Sprintf("%d × %q", n, msg), func(text string) bool {
		return strings.Count(text, `"msg":"`+msg) >= n
	})
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// result is what one command run left behind.
type result struct {
	err            error
	stdout, stderr string
}

func envFunc(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

// run runs one command to completion.
func run(tb testing.TB, env map[string]string, stdin string, args ...string) result {
	tb.Helper()
	var stdout, stderr syncBuffer
	p := &cli.Program{Getenv: envFunc(env), Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Version: "test"}
	err := p.Run(context.Background(), args)
	return result{err: err, stdout: stdout.String(), stderr: stderr.String()}
}

// migrated runs "catalog migrate" on the SQLite file path, which
// creates it, as an operator does before the other commands, and
// returns path.
func migrated(tb testing.TB, path string) string {
	tb.Helper()
	wantExit(tb, run(tb, nil, "", "migrate", "--db", path), 0)
	return path
}

func wantExit(tb testing.TB, r result, code int) {
	tb.Helper()
	if got := cli.ExitCode(r.err); got != code {
		tb.Fatalf("exit code: got %d (err %v), want %d\nstdout: %s\nstderr: %s", got, r.err, code, r.stdout, r.stderr)
	}
	if r.err != nil && strings.Contains(r.err.Error(), "\n") {
		tb.Errorf("error is not one line: %q", r.err)
	}
}

// server is a serve command running in the background.
type server struct {
	addrs  cli.Addrs
	cancel context.CancelFunc
	done   chan error
	stdout *syncBuffer
	stderr *syncBuffer
}

func startServe(tb testing.TB, env map[string]string, args ...string) *server {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{cancel: cancel, done: make(chan error, 1), stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	listening := make(chan cli.Addrs, 1)
	p := &cli.Program{Getenv: envFunc(env), Stdin: strings.NewReader(""), Stdout: s.stdout, Stderr: s.stderr,
		Version: "test", Listening: func(a cli.Addrs) { listening <- a }}
	go func() { s.done <- p.Run(ctx, append([]string{"serve"}, args...)) }()
	tb.Cleanup(func() {
		cancel()
		<-s.done
	})
	select {
	case s.addrs = <-listening:
	case err := <-s.done:
		s.done <- err
		tb.Fatalf("serve stopped before listening: %v\nstderr: %s", err, s.stderr.String())
	case <-time.After(30 * time.Second):
		tb.Fatalf("serve did not start listening\nstderr: %s", s.stderr.String())
	}
	return s
}

// stop cancels serve and returns Run's result.
func (s *server) stop(tb testing.TB) error {
	tb.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(cli.ShutdownTimeout + 5*time.Second):
		tb.Fatal("serve did not stop after its context was cancelled")
		return nil
	}
}

func getJSON(tb testing.TB, c *http.Client, u string, v any) int {
	tb.Helper()
	resp, err := c.Get(u)
	if err != nil {
		tb.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			tb.Fatalf("GET %s: body %q: %v", u, body, err)
		}
	}
	return resp.StatusCode
}

func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0"}
	srv := startServe(t, env)
	clips, movies := "http://"+srv.addrs.Clips.String(), "http://"+srv.addrs.Movies.String()
	if !strings.Contains(srv.stderr.String(), `"clips_addr":"`+srv.addrs.Clips.String()+`"`) {
		t.Errorf("log does not name the bound clips address %s:\n%s", srv.addrs.Clips, srv.stderr.String())
	}

	for _, base := range []string{clips, movies} {
		var health struct{ Status, Version, Database string }
		if code := getJSON(t, http.DefaultClient, base+"/api/health", &health); code != 200 || health.Status != "ok" || health.Version != "test" {
			t.Errorf("%s/api/health: got %d %+v, want 200 ok with version test", base, code, health)
		}
	}

	// admin create works against the database the server is using.
	r := run(t, env, "correct horse battery staple\n", "admin", "create", "--username", "alice")
	wantExit(t, r, 0)

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(clips+"/admin/login", url.Values{"username": {"alice"}, "password": {"correct horse battery staple"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: got status %d, want 303", resp.StatusCode)
	}

	body := `{"title": "Sunset over the bay", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ", "platform": "JAV"}`
	resp, err = client.Post(clips+"/api/clips", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ Data struct{ ID int64 } }
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || created.Data.ID == 0 {
		t.Fatalf("POST /api/clips: got %d id %d, want 201 with an id", resp.StatusCode, created.Data.ID)
	}
	var got struct {
		Data struct {
			Title    string
			CoverURL string `json:"cover_url"`
		}
	}
	if code := getJSON(t, http.DefaultClient, clips+"/api/clips/"+itoa(created.Data.ID), &got); code != 200 ||
		got.Data.Title != "Sunset over the bay" || got.Data.CoverURL != "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" {
		t.Errorf("read back: got %d %+v", code, got.Data)
	}

	// A slow request in flight when the signal comes still finishes.
	slow := make(chan int, 1)
	go func() {
		resp, err := http.Get(movies + "/api/movies?limit=100")
		if err != nil {
			slow <- 0
			return
		}
		resp.Body.Close()
		slow <- resp.StatusCode
	}()
	if err := srv.stop(t); err != nil {
		t.Errorf("serve after cancel: got %v, want nil", err)
	}
	if code := <-slow; code != 0 && code != 200 {
		t.Errorf("request during shutdown: got %d, want 200 or not started", code)
	}
	if _, err := net.DialTimeout("tcp", srv.addrs.Clips.String(), time.Second); err == nil {
		t.Errorf("clips address still accepts connections after shutdown")
	}
	if testdb.Engine() == testdb.SQLite {
		if _, err := os.Stat(db.DSN() + ".snapshots"); err != nil {
			t.Errorf("default snapshot folder beside the database: %v", err)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestServeDemo(t *testing.T) {
	t.Parallel()
	srv := startServe(t, nil, "--demo", "--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0")
	out := srv.stdout.String()
	i := strings.Index(out, "password ")
	if i < 0 {
		t.Fatalf("demo did not print the admin password:\n%s", out)
	}
	password := strings.Fields(out[i+len("password "):])[0]
	var list struct{ Meta struct{ Total int } }
	if code := getJSON(t, http.DefaultClient, "http://"+srv.addrs.Clips.String()+"/api/clips", &list); code != 200 || list.Meta.Total < 100 {
		t.Errorf("demo clips: got %d total %d, want a few hundred", code, list.Meta.Total)
	}
	var movies struct{ Total int }
	if code := getJSON(t, http.DefaultClient, "http://"+srv.addrs.Movies.String()+"/api/movies", &movies); code != 200 || movies.Total < 100 {
		t.Errorf("demo movies: got %d total %d, want a few hundred", code, movies.Total)
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).
		PostForm("http://"+srv.addrs.Clips.String()+"/admin/login", url.Values{"username": {"admin"}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("demo admin login: got %d, want 303", resp.StatusCode)
	}
	if err := srv.stop(t); err != nil {
		t.Errorf("stop: %v", err)
	}
	if strings.Count(srv.stdout.String(), password) != 1 {
		t.Errorf("the password should be printed exactly once")
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no command", nil, nil, "no command"},
		{"unknown command", nil, []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"bad duration flag", nil, []string{"serve", "--snapshot-every=abc"}, "snapshot-every"},
		{"bad duration env", map[string]string{"CATALOG_SNAPSHOT_EVERY": "abc"}, []string{"serve"}, "CATALOG_SNAPSHOT_EVERY"},
		{"zero duration", nil, []string{"serve", "--snapshot-every=0s"}, "must be positive"},
		{"zero upload duration", nil, []string{"serve", "--upload-max-duration=0s"}, "--upload-max-duration must be positive"},
		{"bad upload duration env", map[string]string{"CATALOG_UPLOAD_MAX_DURATION": "long"}, []string{"serve"}, "CATALOG_UPLOAD_MAX_DURATION"},
		{"bad bool env", map[string]string{"CATALOG_COOKIE_SECURE": "maybe"}, []string{"serve"}, "CATALOG_COOKIE_SECURE"},
		{"bad int env", map[string]string{"CATALOG_DB_MAX_CONNS": "many"}, []string{"migrate"}, "CATALOG_DB_MAX_CONNS"},
		{"negative conns", nil, []string{"migrate", "--db-max-conns=-1"}, "db-max-conns"},
		{"empty platform", nil, []string{"serve", "--platforms", "JAV,,X"}, "platforms"},
		{"bad proxy", nil, []string{"serve", "--trusted-proxies", "10.0.0.0/8,lb.internal"}, "lb.internal"},
		{"unknown language", nil, []string{"serve", "--default-language", "fr"}, "--default-language must be one of en, th, zh-Hans"},
		{"unknown language env", map[string]string{"CATALOG_DEFAULT_LANGUAGE": "de"}, []string{"serve"}, `got "de"`},
		{"unknown flag", nil, []string{"migrate", "--nope"}, "nope"},
		{"stray argument", nil, []string{"migrate", "extra"}, `"extra"`},
		{"import without kind", nil, []string{"import"}, "import movies"},
		{"import without file", nil, []string{"import", "movies", "--db", db}, "FILE"},
		{"admin without username", nil, []string{"admin", "create", "--db", db}, "--username"},
		{"seed nothing", nil, []string{"seed", "--db", db}, "--clips"},
		{"snapshot without out", nil, []string{"snapshot", "--db", db}, "--out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.env, "", tc.args...)
			wantExit(t, r, 2)
			if !strings.Contains(r.err.Error(), tc.want) {
				t.Errorf("got %q, want it to mention %q", r.err, tc.want)
			}
		})
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("a usage error created the database")
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"serve", "-h"}, {"import", "movies", "-h"}, {"migrate", "--help"}} {
		r := run(t, nil, "", args...)
		wantExit(t, r, 0)
		if !strings.Contains(r.stdout, "Usage: catalog") {
			t.Errorf("%v: got stdout %q, want usage", args, r.stdout)
		}
	}
	r := run(t, nil, "", "serve", "-h")
	for _, env := range []string{"CATALOG_DB", "CATALOG_CLIPS_ADDR", "CATALOG_MOVIES_ADDR", "CATALOG_PLATFORMS",
		"CATALOG_SNAPSHOT_EVERY", "CATALOG_SNAPSHOT_DIR", "CATALOG_COOKIE_SECURE", "CATALOG_DB_MAX_CONNS"} {
		if !strings.Contains(r.stdout, env) {
			t.Errorf("serve -h does not mention %s", env)
		}
	}
}

func TestPortTaken(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	db := filepath.Join(t.TempDir(), "c.db")
	for _, args := range [][]string{
		{"serve", "--db", db, "--clips-addr", ln.Addr().String(), "--movies-addr", "127.0.0.1:0"},
		{"serve", "--db", db, "--clips-addr", "127.0.0.1:0", "--movies-addr", ln.Addr().String()},
	} {
		r := run(t, nil, "", args...)
		wantExit(t, r, 1)
		if !strings.Contains(r.err.Error(), ln.Addr().String()) {
			t.Errorf("got %q, want it to name %s", r.err, ln.Addr())
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("serve opened the database although it could not listen")
	}
}

func TestEnvAndFlagPrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fromEnv, fromFlag := filepath.Join(dir, "env.db"), filepath.Join(dir, "flag.db")
	env := map[string]string{"CATALOG_DB": fromEnv}
	wantExit(t, run(t, env, "", "migrate"), 0)
	if _, err := os.Stat(fromEnv); err != nil {
		t.Errorf("CATALOG_DB not honoured: %v", err)
	}
	os.Remove(fromEnv)
	wantExit(t, run(t, env, "", "migrate", "--db", fromFlag), 0)
	if _, err := os.Stat(fromFlag); err != nil {
		t.Errorf("--db not honoured: %v", err)
	}
	if _, err := os.Stat(fromEnv); err == nil {
		t.Errorf("CATALOG_DB used although --db was given")
	}

	// The platform list from the environment reaches the clip service.
	srv := startServe(t, map[string]string{"CATALOG_DB": fromFlag, "CATALOG_PLATFORMS": "Alpha,Beta",
		"CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0", "CATALOG_SNAPSHOT_DIR": filepath.Join(dir, "snaps")})
	var pl struct{ Data []string }
	getJSON(t, http.DefaultClient, "http://"+srv.addrs.Clips.String()+"/api/platforms", &pl)
	if strings.Join(pl.Data, ",") != "Alpha,Beta" {
		t.Errorf("platforms: got %v, want [Alpha Beta]", pl.Data)
	}
	if err := srv.stop(t); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "snaps")); err != nil {
		t.Errorf("CATALOG_SNAPSHOT_DIR not honoured: %v", err)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := run(t, nil, "", "version")
	wantExit(t, r, 0)
	if r.stdout != "catalog test\n" {
		t.Errorf("got %q, want %q", r.stdout, "catalog test\n")
	}
	var stdout bytes.Buffer
	if err := cli.Run(context.Background(), []string{"version"}, envFunc(nil), nil, &stdout, io.Discard); err != nil || !strings.HasPrefix(stdout.String(), "catalog ") {
		t.Errorf("build version: got %q, %v", stdout.String(), err)
	}
}

func TestAdminCreate(t *testing.T) {
	t.Parallel()
	tdb := testdb.New(t)
	db := tdb.DSN()
	r := run(t, nil, "short\n", "admin", "create", "--db", db, "--username", "bob")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), "at least 12") {
		t.Errorf("short password: got %q", r.err)
	}
	wantExit(t, run(t, nil, "", "admin", "create", "--db", db, "--username", "bob"), 1)
	wantExit(t, run(t, nil, "a long enough password\r\nignored\n", "admin", "create", "--db", db, "--username", "bob"), 0)
	r = run(t, nil, "another long password\n", "admin", "create", "--db", db, "--username", "bob")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), `"bob" already exists`) {
		t.Errorf("duplicate: got %q", r.err)
	}
	s := tdb.Open(t)
	a, err := s.AdminByUsername(context.Background(), "bob")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.PasswordHash, "password") || !strings.HasPrefix(a.PasswordHash, "$2") {
		t.Errorf("stored hash %q is not bcrypt", a.PasswordHash)
	}
}

func TestImportMixedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tdb := testdb.New(t)
	db := tdb.DSN()
	file := filepath.Join(dir, "movies.jsonl")
	os.WriteFile(file, []byte(`{"name": "Good one", "id_code": "G-1"}`+"\n"+
		`{"name": "Bad date", "release": "2019-02-30"}`+"\n"+
		`{"name": "Good two", "categories": "Drama, Travel"}`+"\n"), 0o644)

	r := run(t, nil, "", "import", "movies", "--db", db, file, "--dry-run")
	wantExit(t, r, 1)
	if n := movieCount(t, tdb); n != 0 {
		t.Errorf("dry run stored %d movies", n)
	}

	r = run(t, nil, "", "import", "movies", "--db", db, file)
	wantExit(t, r, 1)
	if want := file + ":2: release: must be a real date as YYYY-MM-DD\n"; r.stderr != want {
		t.Errorf("stderr: got %q, want %q", r.stderr, want)
	}
	if !strings.Contains(r.stdout, "3 read, 2 imported, 1 rejected") {
		t.Errorf("summary: got %q", r.stdout)
	}
	if n := movieCount(t, tdb); n != 2 {
		t.Errorf("stored %d movies, want 2", n)
	}

	// Standard input, all good: exit 0.
	r = run(t, nil, `{"title": "Rain on the window", "iframe_url": "https://dai.ly/x8abc"}`+"\n", "import", "clips", "--db", db, "-")
	wantExit(t, r, 0)
	if !strings.Contains(r.stdout, "stdin: 1 read, 1 imported, 0 rejected") {
		t.Errorf("stdin summary: got %q", r.stdout)
	}
	r = run(t, nil, "", "import", "movies", "--db", db, filepath.Join(dir, "missing.jsonl"), file)
	wantExit(t, r, 1)
	if !strings.Contains(r.stderr, "missing.jsonl: no such file") || !strings.Contains(r.stdout, "movies.jsonl: 3 read") {
		t.Errorf("a missing file should not stop the others: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = run(t, nil, "", "import", "movies", "--db", db, file, filepath.Join(dir, "movies.xml"))
	wantExit(t, r, 2)
	if !strings.Contains(r.err.Error(), "unknown file type") || r.stdout != "" {
		t.Errorf("unknown file type: got %q, stdout %q; want a usage error before importing anything", r.err, r.stdout)
	}
}

func movieCount(tb testing.TB, db testdb.DB) int64 {
	tb.Helper()
	n, err := db.Open(tb).CountMovies(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

func TestSeedAndSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tdb := testdb.New(t)
	db := tdb.DSN()
	wantExit(t, run(t, nil, "", "seed", "--db", db, "--clips", "30", "--movies", "25"), 0)
	wantExit(t, run(t, map[string]string{"CATALOG_SEED_MOVIES": "5"}, "", "seed", "--db", db, "--force"), 0)
	out := filepath.Join(dir, "snap.json")
	r := run(t, nil, "", "snapshot", "--db", db, "--out", out)
	wantExit(t, r, 0)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Total int
		List  []struct {
			IDCode string `json:"id_code"`
		}
	}
	if err := json.Unmarshal(b, &snap); err != nil {
		t.Fatalf("snapshot is not JSON: %v", err)
	}
	codes := map[string]bool{}
	for _, m := range snap.List {
		codes[m.IDCode] = true
	}
	if snap.Total != 30 || len(snap.List) != 30 || len(codes) != 30 {
		t.Errorf("snapshot: got total %d, %d movies, %d distinct codes; want 30 each", snap.Total, len(snap.List), len(codes))
	}
	s := tdb.Open(t)
	if total, err := s.CountClips(context.Background()); err != nil || total != 30 {
		t.Errorf("seeded clips: got %d, %v; want 30", total, err)
	}
}

// seed refuses a database that holds records unless given --force, and
// its codes never take a real one's: with --force, the shipped examples
// (DEF-045, GHI-007) keep their records.
func TestSeedKeepsRealRecords(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "real.db")
			if engine == "postgres" {
				dsn = pgtest.EmptyDSN(t)
			} else {
				migrated(t, dsn)
			}
			env := map[string]string{"CATALOG_DB": dsn}
			wantExit(t, run(t, env, "", "import", "movies", filepath.Join("..", "..", "examples", "movies.jsonl")), 0)
			before := run(t, env, "", "export", "movies")
			wantExit(t, before, 0)

			r := run(t, env, "", "seed", "--movies", "50")
			wantExit(t, r, 1)
			if !strings.Contains(r.err.Error(), "already holds 3 movies and 0 clips") || !strings.Contains(r.err.Error(), "--force") {
				t.Errorf("seed on a filled database: error %q, want the counts and --force", r.err)
			}
			if after := run(t, env, "", "export", "movies"); after.stdout != before.stdout {
				t.Fatalf("a refused seed changed the movies")
			}

			wantExit(t, run(t, env, "", "seed", "--movies", "50", "--force", "--quiet"), 0)
			after := run(t, env, "", "export", "movies")
			wantExit(t, after, 0)
			if !strings.HasPrefix(after.stdout, before.stdout) {
				t.Errorf("seed --force changed the imported movies:\nbefore %s\nafter %s", before.stdout, after.stdout[:len(before.stdout)])
			}
			for _, line := range strings.Split(strings.TrimSpace(after.stdout), "\n")[3:] {
				if !strings.Contains(line, `"id_code":"DEMO-`) {
					t.Fatalf("seeded movie %s: want an id_code starting DEMO-", line)
				}
			}
		})
	}
}

func TestStoreErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A directory where the database file should be cannot be opened.
	r := run(t, nil, "", "migrate", "--db", dir)
	wantExit(t, r, 1)
	if errors.Is(r.err, context.Canceled) || strings.Contains(r.err.Error(), "goroutine") {
		t.Errorf("got %q", r.err)
	}
}

// The README's example files import as the README says.
func TestExampleFiles(t *testing.T) {
	t.Parallel()
	tdb := testdb.New(t)
	db := tdb.DSN()
	ex := filepath.Join("..", "..", "examples")
	wantExit(t, run(t, nil, "", "import", "movies", "--db", db, filepath.Join(ex, "movies.jsonl"), filepath.Join(ex, "movies.csv")), 0)
	wantExit(t, run(t, nil, "", "import", "clips", "--db", db, filepath.Join(ex, "clips.jsonl")), 0)
	if n := movieCount(t, tdb); n != 5 {
		t.Errorf("examples: %d movies, want 5", n)
	}
	r := run(t, nil, "", "import", "movies", "--dry-run", "--db", db, filepath.Join(ex, "movies-with-errors.jsonl"))
	wantExit(t, r, 1)
	if got := strings.Count(r.stderr, "\n"); got != 4 {
		t.Errorf("movies-with-errors: got %d rejected lines, want 4:\n%s", got, r.stderr)
	}
}

// A postgres:// --db selects the PostgreSQL store for every command.
func TestPostgres(t *testing.T) {
	t.Parallel()
	dsn := pgtest.EmptyDSN(t)
	ex := filepath.Join("..", "..", "examples")
	env := map[string]string{"CATALOG_DB": dsn}
	wantExit(t, run(t, env, "", "migrate"), 0)
	wantExit(t, run(t, env, "", "import", "movies", filepath.Join(ex, "movies.jsonl"), filepath.Join(ex, "movies.csv")), 0)
	wantExit(t, run(t, env, "a long enough password\n", "admin", "create", "--username", "carol"), 0)
	srv := startServe(t, env, "--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0",
		"--snapshot-dir", filepath.Join(t.TempDir(), "snaps"))
	if u, err := url.Parse(dsn); err == nil {
		if pw, ok := u.User.Password(); ok && strings.Contains(srv.stderr.String(), pw) {
			t.Errorf("the log shows the database password")
		}
	}
	var movies struct{ Total int }
	if code := getJSON(t, http.DefaultClient, "http://"+srv.addrs.Movies.String()+"/api/movies", &movies); code != 200 || movies.Total != 5 {
		t.Errorf("movies on PostgreSQL: got %d total %d, want 200 and 5", code, movies.Total)
	}
	if err := srv.stop(t); err != nil {
		t.Error(err)
	}
}

// A database that cannot be opened stops serve with one line, and leaves
// nothing behind: no snapshot folder, no created parent folders.
func TestServeBadDatabasePathLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "missing", "sub", "catalog.db")
	r := run(t, nil, "", "serve", "--db", db, "--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), "does not exist") {
		t.Errorf("error %q does not say the folder is missing", r.err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("serve created %s (stat err %v)", filepath.Join(dir, "missing"), err)
	}
}
