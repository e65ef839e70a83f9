package cache_test

import (
	"fmt"
	"strings"
	"testing"

	"catalog/internal/cache"
)

// A key over 1 KiB is answered but never kept; 1 KiB is kept.
func TestResponsesLongKeysNotKept(t *testing.T) {
	t.Parallel()
	c := cache.NewResponses(0)
	long := strings.Repeat("k", 1025)
	if got := get(t, c, 1, long, "one"); got != "one" {
		t.Fatalf("miss: got %q, want one", got)
	}
	if got := get(t, c, 1, long, "two"); got != "two" {
		t.Errorf("1025-byte key: got %q, want a fresh fill (not cached)", got)
	}
	if n, _ := c.Len(); n != 0 {
		t.Errorf("entries: got %d, want 0", n)
	}
	edge := strings.Repeat("k", 1024)
	get(t, c, 1, edge, "one")
	if got := get(t, c, 1, edge, "two"); got != "one" {
		t.Errorf("1024-byte key: got %q, want the cached one", got)
	}
}

// Key bytes count against the cap: 1,000 entries with 1 KiB keys and
// 1-byte bodies must stay under a 64 KiB cap.
func TestResponsesCountKeyBytes(t *testing.T) {
	t.Parallel()
	const maxBytes = 64 << 10
	c := cache.NewResponses(maxBytes)
	for i := range 1000 {
		key := fmt.Sprintf("%04d", i) + strings.Repeat("k", 1020)
		get(t, c, 1, key, "v")
	}
	n, bytes := c.Len()
	if bytes > maxBytes {
		t.Errorf("bytes: got %d, want at most %d", bytes, maxBytes)
	}
	if n*1024 > maxBytes {
		t.Errorf("kept %d entries with 1 KiB keys (%d key bytes) under a %d-byte cap", n, n*1024, maxBytes)
	}
	if n == 0 {
		t.Error("entries: got 0, want some kept")
	}
}
