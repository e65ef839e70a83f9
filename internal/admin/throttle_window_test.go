package admin_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search"
	"catalog/internal/testdb"
)

// The throttle window of contract 5 with its numbers as literals: a
// refused login says Retry-After: 900 (15 minutes); failures 10 minutes
// old still count, failures 16 minutes old do not. Black-box: five wrong
// passwords for one username from one address reach every limit the
// contract sets for that pair, whatever the implementation. The clock is
// synctest's, which every time.Now in the bubble reads, so the service
// is tested as it runs, not through a test hook.
func TestLoginThrottleWindow(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	synctest.Test(t, func(t *testing.T) {
		store := db.Open(t)
		e := &env{t: t, store: store, handler: cli.ClipService(cli.ServiceDeps{Store: store, Version: "test",
			// Never started: logging in reads no list.
			ClipSearch: search.NewLive(store, catalog.SearchClips, nil), MovieSearch: search.NewLive(store, catalog.SearchMovies, nil)})}
		e.createAdmin(testUser, testPassword)
		const addr = "198.51.100.20:4000"
		login := func(password string) *http.Response {
			t.Helper()
			rq := loginForm(testUser, password)
			rq.remote = addr
			return e.do(rq).Result()
		}
		for i := range 5 {
			if got := login("wrong").StatusCode; got != http.StatusUnauthorized {
				t.Fatalf("wrong password %d: got %d, want 401", i+1, got)
			}
		}

		time.Sleep(10 * time.Minute)
		res := login(testPassword)
		if res.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("10 minutes after 5 failures: got %d, want 429 (they still count)", res.StatusCode)
		}
		if got := res.Header.Get("Retry-After"); got != "900" {
			t.Errorf("Retry-After: got %q, want 900", got)
		}

		time.Sleep(6 * time.Minute) // the failures are now 16 minutes old
		if got := login(testPassword).StatusCode; got != http.StatusSeeOther {
			t.Fatalf("16 minutes after 5 failures: got %d, want 303 (they no longer count)", got)
		}
	})
}
