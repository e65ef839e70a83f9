package cli_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// Behind a load balancer the per-address login throttling must count
// each client, not the balancer: with --trusted-proxies serve takes the
// client from X-Forwarded-For; without it the header is ignored (any
// client could write it).
func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // httpx's TestBehindProxies pins the rule itself
	for _, tc := range []struct {
		name          string
		args          []string
		otherThrottle bool // is a second client throttled by the first one's failures?
	}{
		{"trusted", []string{"--trusted-proxies", "10.0.0.0/8, 127.0.0.1"}, false},
		{"not trusted", nil, true},
		{"other proxy trusted", []string{"--trusted-proxies", "192.0.2.7"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"CATALOG_DB": testdb.New(t).DSN(), "CATALOG_SNAPSHOT_DIR": t.TempDir()}
			srv := startServe(t, env, append(serveArgs(), tc.args...)...)
			loginFrom := func(forwardedFor, username string) int {
				t.Helper()
				body := url.Values{"username": {username}, "password": {"wrong password"}}.Encode()
				req, _ := http.NewRequest(http.MethodPost, "http://"+srv.addrs.Clips.String()+"/admin/login", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("X-Forwarded-For", forwardedFor)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			// Twenty failures of one client under twenty usernames: only
			// the address count reaches its limit (contract 5). The
			// left-most hop is what the client wrote itself and is never
			// believed.
			for i := range 20 {
				if got := loginFrom("198.51.100.9, 203.0.113.1, 10.1.2.3", "user"+itoa(int64(i))); got != http.StatusUnauthorized {
					t.Fatalf("failure %d: got %d, want 401", i, got)
				}
			}
			if got := loginFrom("203.0.113.1", "another"); got != http.StatusTooManyRequests {
				t.Errorf("the failing client again: got %d, want 429", got)
			}
			want := http.StatusUnauthorized
			if tc.otherThrottle {
				want = http.StatusTooManyRequests
			}
			if got := loginFrom("203.0.113.2", "someone"); got != want {
				t.Errorf("another client: got %d, want %d", got, want)
			}
		})
	}
}
