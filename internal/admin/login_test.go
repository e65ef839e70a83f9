package admin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/testdb"
)

// The login throttling of contract 5 over HTTP. The contract's numbers
// are literals here (5, 20, 100, Retry-After 900, 10 and 16 minutes, 64
// bytes), not the constants under test. Run on PostgreSQL with
// CATALOG_TEST_ENGINE=postgres.

const loginPassword = "correct horse battery staple"

// loginEnv is one database shared by one or more instances of the
// service, each with its own store handle (as separate processes have),
// and a count of the password checks all of them made.
type loginEnv struct {
	t         *testing.T
	store     catalog.Store
	instances []*Service
	checks    atomic.Int64
}

func newLoginEnv(t *testing.T, instances int) *loginEnv {
	t.Helper()
	db := testdb.New(t)
	e := &loginEnv{t: t}
	for range instances {
		st := db.Open(t)
		s := New(Config{Store: st})
		s.checkPassword = func(hash, password []byte) error {
			e.checks.Add(1)
			return bcrypt.CompareHashAndPassword(hash, password)
		}
		e.instances = append(e.instances, s)
	}
	e.store = db.Open(t)
	return e
}

// createAdmins creates administrators with loginPassword hashed at cost.
func (e *loginEnv) createAdmins(cost int, usernames ...string) {
	e.t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(loginPassword), cost)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, u := range usernames {
		a := catalog.Admin{Username: u, PasswordHash: string(hash)}
		if err := e.store.CreateAdmin(context.Background(), &a); err != nil {
			e.t.Fatalf("create admin %q: %v", u, err)
		}
	}
}

// createNumbered creates the administrators user0, user1, ... and
// returns their names.
func (e *loginEnv) createNumbered(n int) []string {
	e.t.Helper()
	var users []string
	for i := range n {
		users = append(users, fmt.Sprintf("user%d", i))
	}
	e.createAdmins(bcrypt.MinCost, users...)
	return users
}

type attempt struct {
	instance                 int
	username, password, addr string
	forwardedFor             string
}

func (e *loginEnv) try(a attempt) *httptest.ResponseRecorder {
	body := url.Values{"username": {a.username}, "password": {a.password}}.Encode()
	r := httptest.NewRequest(http.MethodPost, "/admin/login", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = a.addr + ":40000"
	if a.forwardedFor != "" {
		r.Header.Set("X-Forwarded-For", a.forwardedFor)
	}
	w := httptest.NewRecorder()
	e.instances[a.instance].Login(w, r)
	return w
}

// want sends an attempt and wants status; a 429 must carry Retry-After:
// 900 (the 15-minute window).
func (e *loginEnv) want(a attempt, status int) {
	e.t.Helper()
	w := e.try(a)
	if w.Code != status {
		e.t.Fatalf("login %.70q from %s: got %d, want %d", a.username, a.addr, w.Code, status)
	}
	if got := w.Header().Get("Retry-After"); status == http.StatusTooManyRequests && got != "900" {
		e.t.Fatalf("login %.70q from %s: got Retry-After %q, want 900", a.username, a.addr, got)
	}
}

func (e *loginEnv) wantN(n int, a attempt, status int) {
	e.t.Helper()
	for range n {
		e.want(a, status)
	}
}

// wantChecks wants the password checks since the last call to number n.
func (e *loginEnv) wantChecks(n int64) {
	e.t.Helper()
	if got := e.checks.Swap(0); got != n {
		e.t.Fatalf("password checks: got %d, want %d", got, n)
	}
}

func wrongFrom(username, addr string) attempt {
	return attempt{username: username, password: "wrong password", addr: addr}
}

func rightFrom(username, addr string) attempt {
	return attempt{username: username, password: loginPassword, addr: addr}
}

// Of 50 guesses sent at once, at most 5 reach a password check, also
// when two instances share the database; the administrator still logs
// in from another address at once.
func TestLoginParallelGuesses(t *testing.T) {
	t.Parallel()
	for _, instances := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d instances", instances), func(t *testing.T) {
			e := newLoginEnv(t, instances)
			// The real cost, so that checks overlap the other requests.
			e.createAdmins(bcrypt.DefaultCost, "alice")
			var mu sync.Mutex
			codes := map[int]int{}
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range 50 {
				wg.Go(func() {
					<-start
					a := wrongFrom("alice", "192.0.2.1")
					a.instance = i % instances
					w := e.try(a)
					mu.Lock()
					defer mu.Unlock()
					codes[w.Code]++
					if w.Code == http.StatusTooManyRequests && w.Header().Get("Retry-After") != "900" {
						t.Errorf("429 with Retry-After %q, want 900", w.Header().Get("Retry-After"))
					}
				})
			}
			close(start)
			wg.Wait()
			checks := e.checks.Swap(0)
			t.Logf("50 parallel guesses: %d password checks, statuses %v", checks, codes)
			if checks > 5 {
				t.Fatalf("50 parallel guesses: got %d password checks, want at most 5", checks)
			}
			if codes[http.StatusUnauthorized] != int(checks) || codes[http.StatusTooManyRequests] != 50-int(checks) {
				t.Fatalf("50 parallel guesses: got statuses %v with %d checks, want 401 per check and 429 for the rest", codes, checks)
			}
			e.want(rightFrom("alice", "198.51.100.7"), http.StatusSeeOther)
			e.want(rightFrom("alice", "192.0.2.1"), http.StatusTooManyRequests)
			e.wantChecks(1)
		})
	}
}

func TestLoginLimits(t *testing.T) {
	t.Parallel()
	t.Run("per pair", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		e.createAdmins(bcrypt.MinCost, "alice")
		e.wantN(5, wrongFrom("alice", "192.0.2.1"), http.StatusUnauthorized)
		e.want(rightFrom("alice", "192.0.2.1"), http.StatusTooManyRequests)
		e.wantChecks(5)
		e.want(rightFrom("alice", "192.0.2.2"), http.StatusSeeOther)
	})

	t.Run("per address over all usernames", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		users := e.createNumbered(21)
		for _, u := range users[:20] {
			e.want(wrongFrom(u, "192.0.2.1"), http.StatusUnauthorized)
		}
		e.want(rightFrom(users[20], "192.0.2.1"), http.StatusTooManyRequests)
		e.wantChecks(20)
		e.want(rightFrom(users[20], "192.0.2.2"), http.StatusSeeOther)
	})

	// A stranger guessing from many addresses holds the username, but
	// not at an address the administrator logged in from within 30 days.
	t.Run("per username over all addresses", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		e.createAdmins(bcrypt.MinCost, "alice")
		const home = "198.51.100.1"
		e.want(rightFrom("alice", home), http.StatusSeeOther)
		for i := range 20 {
			e.wantN(5, wrongFrom("alice", fmt.Sprintf("203.0.113.%d", i)), http.StatusUnauthorized)
		}
		e.wantChecks(1 + 100)
		e.want(rightFrom("alice", "203.0.113.99"), http.StatusTooManyRequests)
		e.want(rightFrom("alice", "192.0.2.50"), http.StatusTooManyRequests)
		e.wantChecks(0)
		e.want(rightFrom("alice", home), http.StatusSeeOther)
		e.wantChecks(1)
		// A success 31 days ago no longer makes the address known; one
		// 29 days ago does.
		ctx := context.Background()
		now := time.Now()
		if err := e.store.LoginSucceeded(ctx, "alice", "192.0.2.31", now.Add(-31*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := e.store.LoginSucceeded(ctx, "alice", "192.0.2.29", now.Add(-29*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		e.want(rightFrom("alice", "192.0.2.31"), http.StatusTooManyRequests)
		e.want(rightFrom("alice", "192.0.2.29"), http.StatusSeeOther)
	})

	t.Run("a success clears its pair", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		e.createAdmins(bcrypt.MinCost, "alice")
		e.wantN(4, wrongFrom("alice", "192.0.2.1"), http.StatusUnauthorized)
		e.want(rightFrom("alice", "192.0.2.1"), http.StatusSeeOther)
		e.wantN(5, wrongFrom("alice", "192.0.2.1"), http.StatusUnauthorized)
		e.want(wrongFrom("alice", "192.0.2.1"), http.StatusTooManyRequests)
	})

	t.Run("refused attempts are not counted", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		users := e.createNumbered(16)
		e.wantN(5, wrongFrom(users[0], "192.0.2.1"), http.StatusUnauthorized)
		e.wantN(10, wrongFrom(users[0], "192.0.2.1"), http.StatusTooManyRequests)
		// The address has 5 failures, not 15: 15 more go to a check.
		for _, u := range users[1:] {
			e.want(wrongFrom(u, "192.0.2.1"), http.StatusUnauthorized)
		}
		e.wantChecks(5 + 15)
		e.want(rightFrom(users[1], "192.0.2.1"), http.StatusTooManyRequests)
	})

	t.Run("window", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		e.createAdmins(bcrypt.MinCost, "alice")
		ctx := context.Background()
		now := time.Now()
		for range 5 {
			if err := e.store.ReserveLogin(ctx, "alice", "192.0.2.16", now.Add(-16*time.Minute)); err != nil {
				t.Fatal(err)
			}
			if err := e.store.ReserveLogin(ctx, "alice", "192.0.2.10", now.Add(-10*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		e.want(rightFrom("alice", "192.0.2.10"), http.StatusTooManyRequests)
		e.want(rightFrom("alice", "192.0.2.16"), http.StatusSeeOther)
	})

	t.Run("username length", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		ctx := context.Background()
		long, max := strings.Repeat("a", 65), strings.Repeat("a", 64)
		// Never checked, never stored, never counted against the address.
		e.wantN(25, wrongFrom(long, "192.0.2.1"), http.StatusUnauthorized)
		e.wantChecks(0)
		if n, err := e.store.UnlockLogin(ctx, long); err != nil || n != 0 {
			t.Fatalf("failures stored for a 65-byte username: got %d, %v; want 0", n, err)
		}
		// Just under the 16 KiB form limit.
		e.want(wrongFrom(strings.Repeat("a", 16000), "192.0.2.1"), http.StatusUnauthorized)
		e.want(wrongFrom(max, "192.0.2.1"), http.StatusUnauthorized)
		e.wantChecks(1)
		if n, err := e.store.UnlockLogin(ctx, max); err != nil || n != 1 {
			t.Fatalf("failures stored for a 64-byte username: got %d, %v; want 1", n, err)
		}
	})

	// The handler takes the connection's address; X-Forwarded-For is
	// believed only from --trusted-proxies, which internal/cli applies
	// before the handler (TestTrustedProxies there).
	t.Run("X-Forwarded-For from a client is ignored", func(t *testing.T) {
		e := newLoginEnv(t, 1)
		e.createAdmins(bcrypt.MinCost, "alice")
		for i := range 5 {
			a := wrongFrom("alice", "192.0.2.1")
			a.forwardedFor = fmt.Sprintf("203.0.113.%d", i)
			e.want(a, http.StatusUnauthorized)
		}
		a := rightFrom("alice", "192.0.2.1")
		a.forwardedFor = "203.0.113.99"
		e.want(a, http.StatusTooManyRequests)
	})
}
