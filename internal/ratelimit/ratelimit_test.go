package ratelimit

import (
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"
)

func TestOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := NewOnce(time.Hour, 3)
		steps := []struct {
			wait time.Duration
			key  string
			want bool
		}{
			{0, "a", true},
			{0, "a", false},
			{59 * time.Minute, "a", false},
			{0, "b", true},
			{0, "c", true},
			{0, "d", false},          // full, none expired: refused, nothing stored
			{time.Minute, "a", true}, // a's hour has passed
			{0, "d", false},          // b and c still hold their windows, a its new one
			{time.Hour, "d", true},   // the expired are forgotten
		}
		for i, s := range steps {
			time.Sleep(s.wait)
			if got := o.Allow(s.key); got != s.want {
				t.Errorf("step %d: Allow(%s) = %v, want %v", i, s.key, got, s.want)
			}
		}
		if n := len(o.seen); n > 3 {
			t.Errorf("keys held: %d, want at most 3", n)
		}
	})
}

func TestClientKey(t *testing.T) {
	for addr, want := range map[string]string{
		"203.0.113.7:5555":        "203.0.113.7",
		"[2001:db8:1:2:3::9]:443": "2001:db8:1:2::/64",
		"[::ffff:203.0.113.7]:1":  "203.0.113.7",
		"not an address":          "not an address",
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.RemoteAddr = addr
		if got := ClientKey(r); got != want {
			t.Errorf("ClientKey(%s) = %q, want %q", addr, got, want)
		}
	}
}
