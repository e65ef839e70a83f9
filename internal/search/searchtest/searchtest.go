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
// ends, and waits until it answers.
func Start(t testing.TB, store catalog.Store, kind catalog.SearchKind) *search.Live {
	t.Helper()
	l := search.NewLive(store, kind, nil)
	l.Start(t.Context())
	for deadline := time.Now().Add(30 * time.Second); !l.Ready(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("search index not ready after 30 s")
		}
	}
	return l
}
