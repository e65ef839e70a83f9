package ratelimit

import (
	"net/http/httptest"
	"strconv"
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
			{time.Minute, "a", true}, // a's hour has passed
			{0, "a", false},
			{0, "b", false},
			{59 * time.Minute, "b", true}, // b's and c's hours have passed
			{0, "c", true},
		}
		for i, s := range steps {
			time.Sleep(s.wait)
			if got := o.Allow(s.key); got != s.want {
				t.Errorf("step %d: Allow(%s) = %v, want %v", i, s.key, got, s.want)
			}
		}
	})
}

// A full limiter forgets its oldest key early rather than turning new
// keys away, and never holds more than its maximum: a flood of fresh
// keys shortens the window, it does not stop counting.
func TestOnceFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := NewOnce(time.Hour, 3)
		for i, key := range []string{"a", "b", "c"} {
			if !o.Allow(key) {
				t.Fatalf("key %d refused", i)
			}
			time.Sleep(time.Minute)
		}
		if !o.Allow("d") {
			t.Fatal("full: a new key refused")
		}
		if n := o.Len(); n != 3 {
			t.Errorf("keys held: %d, want 3", n)
		}
		if !o.Allow("a") { // the oldest, forgotten to make room for d
			t.Error("the oldest key was not forgotten")
		}
		for _, key := range []string{"c", "d", "a"} { // still in their windows
			if o.Allow(key) {
				t.Errorf("%s let in again within its window", key)
			}
		}
		for i := range 10000 {
			o.Allow("flood " + strconv.Itoa(i))
		}
		if n := o.Len(); n != 3 {
			t.Errorf("keys held after a flood: %d, want 3", n)
		}
		time.Sleep(time.Hour)
		if !o.Allow("a") || o.Len() != 1 {
			t.Errorf("after every window ended: %d keys, want only a's", o.Len())
		}
	})
}

// The expired keys leave without a scan, so a steady stream of new
// keys costs the same whatever the limiter holds.
func BenchmarkOnceAllow(b *testing.B) {
	o := NewOnce(time.Hour, 1<<20)
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = "203.0.113." + strconv.Itoa(i%256) + " " + strconv.Itoa(i)
	}
	b.ResetTimer()
	for i := range b.N {
		o.Allow(keys[i%len(keys)])
	}
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
