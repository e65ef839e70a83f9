package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/storetest"
)

// openStore opens and migrates a store on dsn, closed when the test ends.
func openStore(tb testing.TB, dsn string) *postgres.Store {
	tb.Helper()
	ctx := context.Background()
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 4})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return s
}

func TestIsDSN(t *testing.T) {
	for _, tc := range []struct {
		dsn  string
		want bool
	}{
		{"postgres://u@h/db", true},
		{"postgresql://u@h/db", true},
		{"POSTGRES://u@h/db", true},
		{"catalog.db", false},
		{"/var/lib/catalog/postgres.db", false},
		{"file:catalog.db", false},
		{"", false},
	} {
		if got := postgres.IsDSN(tc.dsn); got != tc.want {
			t.Errorf("IsDSN(%q): got %v, want %v", tc.dsn, got, tc.want)
		}
	}
}

// wantOneLineFailure checks what `serve` prints when it cannot start:
// one line, with the expected reason, without the password.
func wantOneLineFailure(t *testing.T, err error, reason, password string) {
	t.Helper()
	if err == nil {
		t.Fatalf("Open: got nil error, want one containing %q", reason)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error: got %q, want one line", msg)
	}
	if !strings.Contains(msg, reason) {
		t.Errorf("error: got %q, want it to contain %q", msg, reason)
	}
	if password != "" && strings.Contains(msg, password) {
		t.Errorf("error: got %q, want no password in it", msg)
	}
}

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// silentServer accepts connections and never answers, like a host that
// swallows packets.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

func TestOpenFailsWithOneLineReason(t *testing.T) {
	const password = "s3cret-Passw0rd"
	for _, tc := range []struct {
		name, dsn, reason string
	}{
		{"closed port", "postgres://bob:" + password + "@" + closedPort(t) + "/catalog?sslmode=disable", "connection refused"},
		{"silent server", "postgres://bob:" + password + "@" + silentServer(t) + "/catalog?sslmode=disable&connect_timeout=1", "no answer within 1s"},
		{"unknown host", "postgres://bob:" + password + "@no-such-host.invalid:5432/catalog?sslmode=disable", "no-such-host.invalid"},
		{"not a URL", "postgres://bob:" + password + "@127.0.0.1:notaport/catalog", "invalid database URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := postgres.Open(ctx, tc.dsn, postgres.Options{})
			if err == nil {
				s.Close()
			}
			wantOneLineFailure(t, err, tc.reason, password)
			// The one-line reason replaces the driver's text but keeps it
			// underneath for errors.Is and errors.As (not for a DSN that
			// does not parse: the parser's error quotes the password).
			if tc.name != "not a URL" && errors.Unwrap(err) == nil {
				t.Errorf("%v unwraps to nothing: the driver's error is lost", err)
			}
		})
	}
}

func TestOpenRefusedByServer(t *testing.T) {
	server := pgtest.ServerDSN(t)
	const password = "s3cret-Passw0rd"
	for _, tc := range []struct {
		name, user, db, reason string
	}{
		{"unknown user", "no_such_user", "postgres", `role "no_such_user" does not exist`},
		{"unknown database", "", "no_such_database", `database "no_such_database" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(server)
			if err != nil {
				t.Fatal(err)
			}
			user := u.User.Username()
			if tc.user != "" {
				user = tc.user
			}
			u.User = url.UserPassword(user, password)
			u.Path = "/" + tc.db
			s, err := postgres.Open(context.Background(), u.String(), postgres.Options{})
			if err == nil {
				s.Close()
			}
			wantOneLineFailure(t, err, tc.reason, password)
		})
	}
}

func TestMigrateConcurrently(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	stores := make([]*postgres.Store, 3)
	for i := range stores {
		s, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 2})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer s.Close()
		stores[i] = s
	}
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Migrate(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Migrate %d: got %v, want nil", i, err)
		}
	}
	if err := stores[0].Migrate(ctx); err != nil {
		t.Fatalf("Migrate again: got %v, want nil", err)
	}
	c := catalog.Clip{Title: "after migration", IframeURL: "https://example.com/v"}
	if err := stores[1].CreateClip(ctx, &c); err != nil {
		t.Fatalf("CreateClip: %v", err)
	}
	if total, err := stores[2].CountClips(ctx); err != nil || total != 1 {
		t.Fatalf("CountClips: got %d, err %v; want 1, nil", total, err)
	}
}

// Two instances on one database: a change through one is seen by the
// other's DataVersion, and by its reads.
func TestSharedAcrossInstances(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	a, b := openStore(t, dsn), openStore(t, dsn)
	before, err := b.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := catalog.Clip{Title: "Shared", IframeURL: "https://example.com/v", Platform: "JAV"}
	if err := a.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	after, err := b.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after <= before {
		t.Fatalf("DataVersion on the other instance: got %d after a write, want more than %d", after, before)
	}
	got, err := b.GetClip(ctx, c.ID)
	if err != nil || got.Title != "Shared" {
		t.Fatalf("GetClip on the other instance: got %+v, %v", got, err)
	}

	admin := catalog.Admin{Username: "root", PasswordHash: "x"}
	if err := a.CreateAdmin(ctx, &admin); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := a.CreateSession(ctx, catalog.Session{TokenHash: "h", AdminID: admin.ID, CreatedAt: now, LastSeen: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SessionByTokenHash(ctx, "h"); err != nil {
		t.Fatalf("session made on A, read on B: %v", err)
	}
	if err := b.DeleteSession(ctx, "h"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SessionByTokenHash(ctx, "h"); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Fatalf("session ended on B, read on A: got %v, want %s", err, catalog.ENOTFOUND)
	}
}

// A bulk write is one statement for the triggers: the data version moves
// a few steps, not once per row, and the counters are exact.
func TestBulkWritesBumpOncePerStatement(t *testing.T) {
	s := openStore(t, pgtest.DSN(t))
	ctx := context.Background()
	clips := make([]catalog.Clip, 500)
	for i := range clips {
		clips[i] = catalog.Clip{Title: fmt.Sprintf("clip %d", i), IframeURL: "https://example.com/v", Platform: []string{"", "JAV", "ทวิต"}[i%3]}
	}
	movies := make([]catalog.Movie, 500)
	for i := range movies {
		movies[i] = catalog.Movie{Name: fmt.Sprintf("movie %d", i), Slug: fmt.Sprintf("movie-%d", i)}
	}
	before, err := s.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ImportClips(ctx, clips); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	after, err := s.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := after - before; d < 1 || d > 4 {
		t.Errorf("DataVersion moved by %d for two bulk writes, want 1 to 4", d)
	}
	for _, tc := range []struct {
		platform string
		want     int64
	}{{"", 500}, {"JAV", 167}, {"ทวิต", 166}} {
		_, total := storetest.Clips(t, s, catalog.ClipFilter{Platform: tc.platform})
		if total != tc.want {
			t.Errorf("clips of platform %q: got total %d, want %d", tc.platform, total, tc.want)
		}
	}
	if n, err := s.CountMovies(ctx); err != nil || n != 500 {
		t.Errorf("CountMovies: got %d, %v; want 500", n, err)
	}
	// Unchanged re-import: nothing is written, so nothing changes.
	before = after
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	if after, _ = s.DataVersion(ctx); after != before {
		t.Errorf("DataVersion after an unchanged re-import: got %d, want %d", after, before)
	}
}

// Explicit ids from an import move the id sequence past them, so later
// inserts never collide.
func TestExplicitIDsKeepSequenceAhead(t *testing.T) {
	s := openStore(t, pgtest.DSN(t))
	ctx := context.Background()
	if err := s.ImportClips(ctx, []catalog.Clip{{ID: 1000, Title: "imported", IframeURL: "https://example.com/v"}}); err != nil {
		t.Fatal(err)
	}
	c := catalog.Clip{Title: "created", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatalf("CreateClip after an explicit id: %v", err)
	}
	if c.ID <= 1000 {
		t.Errorf("CreateClip: got id %d, want above 1000", c.ID)
	}
	// A lower explicit id must not move the sequence back.
	if err := s.ImportClips(ctx, []catalog.Clip{{ID: 5, Title: "low", IframeURL: "https://example.com/v"}}); err != nil {
		t.Fatal(err)
	}
	next := catalog.Clip{Title: "created again", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &next); err != nil {
		t.Fatalf("CreateClip after a low explicit id: %v", err)
	}
	if next.ID <= c.ID {
		t.Errorf("CreateClip: got id %d, want above %d", next.ID, c.ID)
	}

	movies := []catalog.Movie{{ID: 700, Name: "Explicit", Slug: "explicit"}, {Name: "Fresh", Slug: "fresh"}}
	if err := s.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	if movies[1].ID <= 700 {
		t.Errorf("UpsertMovies: new movie got id %d, want above 700", movies[1].ID)
	}
}

func TestTryLock(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	a, b := openStore(t, dsn), openStore(t, dsn)
	const key = 42
	unlock, ok, err := a.TryLock(ctx, key)
	if err != nil || !ok {
		t.Fatalf("TryLock on A: got ok=%v, err=%v; want true, nil", ok, err)
	}
	if _, ok, err := b.TryLock(ctx, key); err != nil || ok {
		t.Fatalf("TryLock on B while A holds it: got ok=%v, err=%v; want false, nil", ok, err)
	}
	unlock()
	unlockB, ok, err := b.TryLock(ctx, key)
	if err != nil || !ok {
		t.Fatalf("TryLock on B after A let go: got ok=%v, err=%v; want true, nil", ok, err)
	}
	unlockB()
}

// While the database is away every call fails with EUNAVAILABLE (so the
// HTTP layer answers 503/500 in its own shape) and the store keeps
// working once it is back, with everything acknowledged still there.
func TestRecoversWhenDatabaseReturns(t *testing.T) {
	p, dsn := pgtest.NewProxy(t, pgtest.EmptyDSN(t))
	s := openStore(t, dsn)
	ctx := context.Background()
	c := catalog.Clip{Title: "kept", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}

	p.Down()
	calls := map[string]func(ctx context.Context) error{
		"Ping":        s.Ping,
		"DataVersion": func(ctx context.Context) error { _, err := s.DataVersion(ctx); return err },
		"GetClip":     func(ctx context.Context) error { _, err := s.GetClip(ctx, c.ID); return err },
		"ClipsByID":   func(ctx context.Context) error { _, err := s.ClipsByID(ctx, []int64{c.ID}); return err },
		"CreateClip": func(ctx context.Context) error {
			return s.CreateClip(ctx, &catalog.Clip{Title: "lost", IframeURL: "https://example.com/v"})
		},
	}
	for name, call := range calls {
		err := call(ctx)
		if got := catalog.ErrorCode(err); got != catalog.EUNAVAILABLE {
			t.Errorf("%s while the database is away: got code %q (%v), want %q", name, got, err, catalog.EUNAVAILABLE)
		}
		if msg := catalog.ErrorMessage(err); strings.Contains(msg, "127.0.0.1") || strings.Contains(msg, "SELECT") {
			t.Errorf("%s: client message %q leaks details", name, msg)
		}
	}

	p.Up()
	var got catalog.Clip
	var err error
	for attempt := 0; ; attempt++ {
		got, err = s.GetClip(ctx, c.ID)
		if err == nil || attempt == 20 {
			break
		}
		if code := catalog.ErrorCode(err); code != catalog.EUNAVAILABLE {
			t.Fatalf("GetClip after the database returned: got code %q (%v), want success or %q", code, err, catalog.EUNAVAILABLE)
		}
		time.Sleep(100 * time.Millisecond) // a real PostgreSQL server accepting again: nothing to wait on
	}
	if err != nil || got.Title != "kept" {
		t.Fatalf("GetClip after the database returned: got %+v, %v; want the kept clip", got, err)
	}
}

// TestStore runs the behaviour suite both engines share, on databases
// lent by pgtest's pool (creating one costs most of a second).
func TestStore(t *testing.T) {
	storetest.Run(t, func(st *testing.T) catalog.Store {
		st.Helper()
		return openStore(st, pgtest.EmptyDSN(st))
	})
}

// execSQL runs sql on its own connection to dsn.
func execSQL(tb testing.TB, dsn, sql string) {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}

// TestSurvivesServerRestart stops the real test server and starts it
// again (bash .ci/postgres.sh halt / resume). It disturbs every other
// test using the server, so it only runs when asked:
// CATALOG_TEST_POSTGRES_RESTART=1 go test -run TestSurvivesServerRestart ./internal/postgres
func TestSurvivesServerRestart(t *testing.T) {
	if os.Getenv("CATALOG_TEST_POSTGRES_RESTART") == "" {
		t.Skip("set CATALOG_TEST_POSTGRES_RESTART=1 to stop and restart the test server (run this test alone)")
	}
	s := openStore(t, pgtest.DSN(t))
	ctx := context.Background()
	c := catalog.Clip{Title: "kept", IframeURL: "https://example.com/v"}
	if err := s.CreateClip(ctx, &c); err != nil {
		t.Fatal(err)
	}
	script := func(cmd string) {
		t.Helper()
		out, err := exec.Command("bash", "../../.ci/postgres.sh", cmd).CombinedOutput()
		if err != nil {
			t.Fatalf("postgres.sh %s: %v\n%s", cmd, err, out)
		}
	}
	script("halt")
	resumed := false
	defer func() {
		if !resumed {
			script("resume")
		}
	}()
	if err := s.Ping(ctx); catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
		t.Errorf("Ping while the server is down: got %v, want code %q", err, catalog.EUNAVAILABLE)
	}
	if _, err := s.ClipsByID(ctx, []int64{c.ID}); catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
		t.Errorf("ClipsByID while the server is down: got %v, want code %q", err, catalog.EUNAVAILABLE)
	}
	script("resume")
	resumed = true
	var got catalog.Clip
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if got, err = s.GetClip(ctx, c.ID); err == nil {
			break
		}
		if code := catalog.ErrorCode(err); code != catalog.EUNAVAILABLE {
			t.Fatalf("GetClip after the restart: got code %q (%v), want success or %q", code, err, catalog.EUNAVAILABLE)
		}
		time.Sleep(100 * time.Millisecond) // a real PostgreSQL server restarting: nothing to wait on
	}
	if err != nil || got.Title != "kept" {
		t.Fatalf("GetClip after the restart: got %+v, %v; want the kept clip", got, err)
	}
}

// A database user without the right to create the schema gets the
// server's one-line reason, not goose's quote of the SQL.
func TestMigrateWithoutPrivilege(t *testing.T) {
	server := pgtest.ServerDSN(t)
	role := fmt.Sprintf("catalog_limited_%d", time.Now().UnixNano())
	execSQL(t, server, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { execSQL(t, server, "DROP ROLE IF EXISTS "+role) })
	dsn := pgtest.DSN(t) // dropped before the role: cleanups run last first
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	s, err := postgres.Open(context.Background(), u.String(), postgres.Options{})
	if err != nil {
		t.Fatalf("Open as %s: %v", role, err)
	}
	defer s.Close()
	err = s.Migrate(context.Background())
	t.Logf("Migrate as %s: %v", role, err)
	wantOneLineFailure(t, err, "permission denied", "")
	if strings.Contains(err.Error(), "CREATE") {
		t.Errorf("error: got %q, want no SQL in it", err)
	}
}

func TestStreamsKeepOffRequestReads(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.EmptyDSN(t), postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	storetest.RunStreams(t, s)
}

// A new database gets no pg_trgm extension and no trigram index: the
// database does no search (the in-process index does), so installing
// catalog must not need the right to create extensions. A database that
// has the indexes from before (simulated here) loses them in 00011 and
// keeps the extension.
func TestNoTrigramSearch(t *testing.T) {
	ctx := context.Background()
	count := func(dsn, sql string) int {
		t.Helper()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer conn.Close(ctx)
		var n int
		if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	const (
		extension = `SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'`
		indexes   = `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexdef LIKE '%gin_trgm_ops%'`
	)

	dsn := pgtest.DSN(t)
	openStore(t, dsn)
	if n := count(dsn, extension); n != 0 {
		t.Errorf("new database: pg_trgm installed %d times, want not at all", n)
	}
	if n := count(dsn, indexes); n != 0 {
		t.Errorf("new database: %d trigram indexes, want none", n)
	}

	// An install from before: the extension and the indexes exist when
	// 00011 runs, which drops the indexes and keeps the extension.
	old := pgtest.DSN(t)
	db, err := sql.Open("pgx", old)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.UpTo(ctx, 10); err != nil {
		t.Fatalf("migrate to 10: %v", err)
	}
	execSQL(t, old, `CREATE EXTENSION IF NOT EXISTS pg_trgm;
		CREATE INDEX IF NOT EXISTS clips_title_fold_trgm ON clips USING gin (title_fold gin_trgm_ops);
		CREATE INDEX IF NOT EXISTS movies_name_fold_trgm ON movies USING gin (name_fold gin_trgm_ops)`)
	openStore(t, old)
	if n := count(old, extension); n != 1 {
		t.Errorf("old database: pg_trgm installed %d times after the migrations, want 1 (kept)", n)
	}
	if n := count(old, indexes); n != 0 {
		t.Errorf("old database: %d trigram indexes after the migrations, want none", n)
	}
}
