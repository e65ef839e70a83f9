package auth_test

import (
	"testing"

	"catalog/internal/auth"
)

func TestThrottleKey(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.1":               "192.0.2.1",
		"2001:db8::1":             "2001:db8::/64",
		"2001:db8::ffff:1:2:3":    "2001:db8::/64",
		"2001:db8:0:1::1":         "2001:db8:0:1::/64",
		"[2001:db8:abcd:12:1::9]": "2001:db8:abcd:12::/64",
		"fe80::1%eth0":            "fe80::/64",
		"::ffff:192.0.2.1":        "192.0.2.1",
		"not an address":          "not an address",
	} {
		if got := auth.ThrottleKey(addr); got != want {
			t.Errorf("ThrottleKey(%q): got %q, want %q", addr, got, want)
		}
	}
}
