package admin

import (
	"net/http"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// IPv6 clients are throttled per /64: five failures from 2001:db8::1
// hold every address of 2001:db8::/64 (::2 ... ::7 used to get 401
// again), while another /64 and IPv4 clients are counted apart.
func TestLoginThrottlesIPv6Per64(t *testing.T) {
	t.Parallel()
	e := newLoginEnv(t, 1)
	e.createAdmins(bcrypt.MinCost, "alice")
	e.wantN(5, wrongFrom("alice", "[2001:db8::1]"), http.StatusUnauthorized)
	for _, addr := range []string{"[2001:db8::2]", "[2001:db8::7]", "[2001:db8::ffff:1:2:3]", "[2001:db8:0:0:8000::1]"} {
		e.want(wrongFrom("alice", addr), http.StatusTooManyRequests)
	}
	e.wantChecks(5)
	e.want(rightFrom("alice", "[2001:db8:0:1::1]"), http.StatusSeeOther) // the next /64
	e.want(rightFrom("alice", "192.0.2.1"), http.StatusSeeOther)
}
