package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"catalog/internal/cli"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
)

// These tests run several `catalog serve` instances (or one whose
// database goes away) on PostgreSQL; they skip without
// CATALOG_TEST_POSTGRES, whatever CATALOG_TEST_ENGINE says, because
// only PostgreSQL is shared by instances.

const instancePassword = "a long enough password"

// reply is one HTTP exchange with its body read.
type reply struct {
	status int
	header http.Header
	body   string
}

// call sends one request without following redirects; body, when set,
// is JSON unless it starts with "form:".
func call(tb testing.TB, method, target, body string, cookie *http.Cookie) reply {
	tb.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(strings.TrimPrefix(body, "form:"))
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		tb.Fatal(err)
	}
	switch {
	case strings.HasPrefix(body, "form:"):
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case body != "":
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// login posts the login form and returns the session cookie.
func login(tb testing.TB, base, username, password string) reply {
	tb.Helper()
	return call(tb, http.MethodPost, base+"/admin/login",
		"form:"+url.Values{"username": {username}, "password": {password}}.Encode(), nil)
}

func sessionCookie(tb testing.TB, r reply) *http.Cookie {
	tb.Helper()
	if r.status != http.StatusSeeOther {
		tb.Fatalf("login: got %d, want 303\n%s", r.status, r.body)
	}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == "catalog_session" && c.Value != "" {
			return c
		}
	}
	tb.Fatalf("login: no catalog_session cookie in %v", r.header["Set-Cookie"])
	return nil
}

type clipList struct {
	Meta struct{ Total int64 }
	Data []struct {
		ID    int64
		Title string
	}
}

func listClips(tb testing.TB, base string) clipList {
	tb.Helper()
	r := call(tb, http.MethodGet, base+"/api/clips", "", nil)
	var l clipList
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &l) != nil {
		tb.Fatalf("GET %s/api/clips: got %d %s", base, r.status, r.body)
	}
	return l
}

// wantClipError checks the clip service's error shape and status.
func wantClipError(tb testing.TB, what string, r reply, statuses ...int) {
	tb.Helper()
	var e struct {
		Error struct {
			Status  int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Error.Status != r.status || e.Error.Message == "" {
		tb.Errorf("%s: got %d %q, want the clip error shape", what, r.status, r.body)
	}
	ok := false
	for _, s := range statuses {
		ok = ok || r.status == s
	}
	if !ok {
		tb.Errorf("%s: got status %d, want one of %v", what, r.status, statuses)
	}
	for _, leak := range []string{"127.0.0.1", "SELECT", "INSERT", "postgres", ".go:"} {
		if strings.Contains(r.body, leak) {
			tb.Errorf("%s: body %q shows %q", what, r.body, leak)
		}
	}
}

func serveArgs() []string {
	return []string{"--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0"}
}

// Two instances on one database behave as one site: a session made on
// one works on the other and ends on both, writes show up in the next
// read on the other instance, failed logins count across instances.
func TestTwoInstancesShareOneDatabase(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": pgtest.EmptyDSN(t)}
	wantExit(t, run(t, env, instancePassword+"\n", "admin", "create", "--username", "alice"), 0)
	a := "http://" + startServe(t, env, serveArgs()...).addrs.Clips.String()
	b := "http://" + startServe(t, env, serveArgs()...).addrs.Clips.String()

	cookie := sessionCookie(t, login(t, a, "alice", instancePassword))
	for _, base := range []string{a, b} { // warm both response caches
		for range 2 {
			if l := listClips(t, base); l.Meta.Total != 0 {
				t.Fatalf("%s: got total %d before any write, want 0", base, l.Meta.Total)
			}
		}
	}

	r := call(t, http.MethodPost, b+"/api/clips", `{"title":"Made on B","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"}`, cookie)
	if r.status != http.StatusCreated {
		t.Fatalf("POST on B with A's session: got %d %s, want 201", r.status, r.body)
	}
	if l := listClips(t, a); l.Meta.Total != 1 || len(l.Data) != 1 || l.Data[0].Title != "Made on B" {
		t.Errorf("list on A after a create on B: got total %d %+v, want the new clip and total 1", l.Meta.Total, l.Data)
	}
	r = call(t, http.MethodPost, a+"/api/clips", `{"title":"Made on A","iframe_url":"https://dai.ly/x8abc"}`, cookie)
	if r.status != http.StatusCreated {
		t.Fatalf("POST on A: got %d %s, want 201", r.status, r.body)
	}
	if l := listClips(t, b); l.Meta.Total != 2 || len(l.Data) == 0 || l.Data[0].Title != "Made on A" {
		t.Errorf("list on B after a create on A: got total %d %+v, want total 2 with the new clip first", l.Meta.Total, l.Data)
	}

	if r := call(t, http.MethodPost, b+"/admin/logout", "form:", cookie); r.status >= 400 {
		t.Fatalf("logout on B: got %d %s", r.status, r.body)
	}
	r = call(t, http.MethodPost, a+"/api/clips", `{"title":"After logout","iframe_url":"https://dai.ly/x8abc"}`, cookie)
	wantClipError(t, "POST on A after logout on B", r, http.StatusUnauthorized)
	if l := listClips(t, b); l.Meta.Total != 2 {
		t.Errorf("total after the refused create: got %d, want 2", l.Meta.Total)
	}

	// Failed logins: three on A and two on B reach the limit of five,
	// so even the right password is refused on A.
	for i, base := range []string{a, a, a, b, b} {
		if r := login(t, base, "alice", "wrong password "+itoa(int64(i))); r.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: got %d, want 401", i, r.status)
		}
	}
	r = login(t, a, "alice", instancePassword)
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Errorf("login on A after five failures on A and B: got %d (Retry-After %q), want 429 with Retry-After",
			r.status, r.header.Get("Retry-After"))
	}
}

// serve wires PostgreSQL's advisory lock into the snapshot builds: while
// another instance holds it, this one builds nothing and says so.
func TestServeWaitsForSnapshotLock(t *testing.T) {
	t.Parallel()
	dsn := pgtest.EmptyDSN(t)
	other, err := postgres.Open(context.Background(), dsn, postgres.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	unlock, ok, err := other.TryLock(context.Background(), cli.SnapshotLockKey)
	if err != nil || !ok {
		t.Fatalf("TryLock: got %v, %v", ok, err)
	}
	defer unlock()
	srv := startServe(t, map[string]string{"CATALOG_DB": dsn}, serveArgs()...)
	srv.stderr.waitFor(t, "a deferred build", func(text string) bool { return strings.Contains(text, "another instance is building") })
	r := call(t, http.MethodGet, "http://"+srv.addrs.Movies.String()+"/api/movies/snapshot", "", nil)
	if r.status != http.StatusServiceUnavailable {
		t.Errorf("snapshot while another instance holds the lock: got %d, want 503 (not built yet)", r.status)
	}
}

// A PostgreSQL that goes away while serving: health says 503 in its
// shape, the API answers 500/503 in its error shapes, the process keeps
// running, and everything works again, with nothing acknowledged lost,
// once the database is back.
func TestDatabaseGoesAwayWhileServing(t *testing.T) {
	t.Parallel()
	proxy, dsn := pgtest.NewProxy(t, pgtest.EmptyDSN(t))
	outage(t, dsn, proxy.Down, proxy.Up)
}

// TestServeSurvivesServerRestart is the same with the real test server
// stopped and started again (bash .ci/postgres.sh halt / resume). It
// disturbs every other test on the server, so it only runs when asked:
// CATALOG_TEST_POSTGRES_RESTART=1 go test -run TestServeSurvivesServerRestart ./internal/cli
func TestServeSurvivesServerRestart(t *testing.T) {
	if os.Getenv("CATALOG_TEST_POSTGRES_RESTART") == "" {
		t.Skip("set CATALOG_TEST_POSTGRES_RESTART=1 to stop and restart the test server (run this test alone)")
	}
	dsn := pgtest.EmptyDSN(t)
	script := func(cmd string) {
		t.Helper()
		out, err := exec.Command("bash", "../../.ci/postgres.sh", cmd).CombinedOutput()
		if err != nil {
			t.Fatalf("postgres.sh %s: %v\n%s", cmd, err, out)
		}
	}
	halted := false
	t.Cleanup(func() {
		if halted {
			script("resume")
		}
	})
	outage(t, dsn, func() { halted = true; script("halt") }, func() { script("resume"); halted = false })
}

// outage serves dsn, calls down, checks the answers while the database
// is away, calls up and checks that everything works again.
func outage(t *testing.T, dsn string, down, up func()) {
	t.Helper()
	env := map[string]string{"CATALOG_DB": dsn}
	wantExit(t, run(t, env, instancePassword+"\n", "admin", "create", "--username", "alice"), 0)
	srv := startServe(t, env, serveArgs()...)
	clips, movies := "http://"+srv.addrs.Clips.String(), "http://"+srv.addrs.Movies.String()
	cookie := sessionCookie(t, login(t, clips, "alice", instancePassword))
	create := func(title string) reply {
		return call(t, http.MethodPost, clips+"/api/clips", `{"title":"`+title+`","iframe_url":"https://dai.ly/x8abc"}`, cookie)
	}
	if r := create("Acknowledged"); r.status != http.StatusCreated {
		t.Fatalf("create: got %d %s", r.status, r.body)
	}
	listClips(t, clips) // a warm cache must not answer for a database that is gone

	down()
	for _, base := range []string{clips, movies} {
		r := call(t, http.MethodGet, base+"/api/health", "", nil)
		var h struct{ Status, Version, Database string }
		if json.Unmarshal([]byte(r.body), &h) != nil || r.status != http.StatusServiceUnavailable ||
			h.Status != "unavailable" || h.Database != "error" || h.Version != "test" {
			t.Errorf("%s/api/health without the database: got %d %s, want 503 unavailable/error", base, r.status, r.body)
		}
	}
	for _, target := range []string{"/api/clips", "/api/clips?q=ack", "/api/clips/1"} {
		wantClipError(t, "GET "+target+" without the database", call(t, http.MethodGet, clips+target, "", nil),
			http.StatusInternalServerError, http.StatusServiceUnavailable)
	}
	wantClipError(t, "POST /api/clips without the database", create("Lost"),
		http.StatusInternalServerError, http.StatusServiceUnavailable)
	r := call(t, http.MethodGet, movies+"/api/movies", "", nil)
	var me struct {
		Code int `json:"code"`
		Msg  string
	}
	if json.Unmarshal([]byte(r.body), &me) != nil || (r.status != 500 && r.status != 503) || me.Code != 0 || me.Msg == "" {
		t.Errorf("GET /api/movies without the database: got %d %s, want 500/503 in the movie error shape", r.status, r.body)
	}
	select {
	case err := <-srv.done:
		srv.done <- err
		t.Fatalf("serve stopped while the database was away: %v", err)
	default:
	}

	up()
	deadline := time.Now().Add(15 * time.Second)
	for call(t, http.MethodGet, clips+"/api/health", "", nil).status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("health did not recover after the database came back")
		}
		time.Sleep(50 * time.Millisecond) // a real PostgreSQL coming back: serve exposes no signal for it
	}
	if l := listClips(t, clips); l.Meta.Total != 1 || l.Data[0].Title != "Acknowledged" {
		t.Errorf("after the database came back: got total %d %+v, want the acknowledged clip only", l.Meta.Total, l.Data)
	}
	if r := create("After the outage"); r.status != http.StatusCreated {
		t.Errorf("create after the database came back: got %d %s, want 201", r.status, r.body)
	}
	if l := listClips(t, clips); l.Meta.Total != 2 {
		t.Errorf("total after a create: got %d, want 2", l.Meta.Total)
	}
}
