// Package searchtest starts an in-process search index for a service
// under test, so that the HTTP suites run their searches through it.
package searchtest

import (
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/search"
)

// Start builds the index of kind over store, kept current until the test
// ends, and waits until it answers; nil when store keeps no search log.
func Start(t testing.TB, store catalog.Store, kind catalog.SearchKind) *search.Live {
	t.Helper()
	sl, ok := store.(catalog.SearchLog)
	if !ok {
		return nil
	}
	l := search.NewLive(sl, kind, nil)
	l.Start(t.Context())
	for deadline := time.Now().Add(30 * time.Second); !l.Ready(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("search index not ready after 30 s")
		}
	}
	return l
}
