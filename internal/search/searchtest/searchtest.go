// Package searchtest starts an in-process search index for a service
// under test, so that the HTTP suites run their searches through it.
package searchtest

import (
	"context"
	"sync"
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
	WaitReady(t, l)
	return l
}

// WaitReady waits until l answers searches. Each search.Live.WaitReady
// blocks on the index's ready signal for up to search.ReadyWait; the
// 30 s deadline only catches a hang.
func WaitReady(t testing.TB, l *search.Live) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); l.WaitReady(t.Context()) != nil; {
		if time.Now().After(deadline) {
			t.Fatal("search index not ready after 30 s")
		}
	}
}

// Held is a store whose whole-catalog reads for an index build
// (SearchDocs) wait until Release is called, so that a test sees a
// service whose index is building. Every other method is the store's.
type Held struct {
	catalog.Store
	release chan struct{}
	once    sync.Once
}

// Hold returns store with its index builds held.
func Hold(store catalog.Store) *Held { return &Held{Store: store, release: make(chan struct{})} }

// Release lets the held builds (and every later one) read.
func (h *Held) Release() { h.once.Do(func() { close(h.release) }) }

// SearchDocs waits for Release (or ctx), then reads.
func (h *Held) SearchDocs(ctx context.Context, kind catalog.SearchKind, fn func(catalog.SearchDoc)) (int64, error) {
	select {
	case <-h.release:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return h.Store.SearchDocs(ctx, kind, fn)
}
