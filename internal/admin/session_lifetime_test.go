package admin_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// Contract 5's session lifetimes as literals, end to end: a session is
// valid 11h59m after its last use and not 12h1m after it; it is valid at
// 6 days 23 hours of steady use and not at 7 days 1 minute. The clock is
// synctest's, which the service and the store's timestamps both read.
func TestSessionLifetimes(t *testing.T) {
	t.Parallel()
	// page is GET /admin with the cookie: 200 for a valid session, a 303
	// to the login form for an expired one.
	page := func(e *env, cookie *http.Cookie) int {
		e.t.Helper()
		return e.do(request{target: "/admin", cookie: cookie}).Code
	}
	open := func(t *testing.T, db testdb.DB) *env {
		store := db.Open(t)
		// The console's lists read the indexes: built here, then left
		// to catch up when searched, with no loop running on in the
		// bubble (a catch-up every fake second of the hours slept).
		built, stop := context.WithCancel(t.Context())
		clips := search.NewLive(store, catalog.SearchClips, nil)
		movies := search.NewLive(store, catalog.SearchMovies, nil)
		clips.Start(built)
		movies.Start(built)
		searchtest.WaitReady(t, clips)
		searchtest.WaitReady(t, movies)
		stop()
		return &env{t: t, store: store, handler: cli.ClipService(cli.ServiceDeps{Store: store, Version: "test", ClipSearch: clips, MovieSearch: movies})}
	}

	t.Run("idle", func(t *testing.T) {
		db := testdb.New(t)
		synctest.Test(t, func(t *testing.T) {
			e := open(t, db)
			cookie := e.login()
			time.Sleep(11*time.Hour + 59*time.Minute)
			if got := page(e, cookie); got != http.StatusOK {
				t.Fatalf("11h59m after the last use: got %d, want 200", got)
			}
			time.Sleep(12*time.Hour + time.Minute)
			if got := page(e, cookie); got != http.StatusSeeOther {
				t.Fatalf("12h1m after the last use: got %d, want 303 to the login form", got)
			}
		})
	})

	t.Run("absolute", func(t *testing.T) {
		db := testdb.New(t)
		synctest.Test(t, func(t *testing.T) {
			e := open(t, db)
			cookie := e.login()
			// Used every 11 hours, so it never idles out: 15 x 11h = 165h.
			for i := range 15 {
				time.Sleep(11 * time.Hour)
				if got := page(e, cookie); got != http.StatusOK {
					t.Fatalf("after %dh of steady use: got %d, want 200", 11*(i+1), got)
				}
			}
			time.Sleep(2 * time.Hour) // 167h = 6 days 23 hours
			if got := page(e, cookie); got != http.StatusOK {
				t.Fatalf("at 6 days 23 hours: got %d, want 200", got)
			}
			time.Sleep(time.Hour + time.Minute) // 7 days 1 minute
			if got := page(e, cookie); got != http.StatusSeeOther {
				t.Fatalf("at 7 days 1 minute: got %d, want 303 to the login form", got)
			}
		})
	})
}
