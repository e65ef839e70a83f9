// Package storetest is the one behaviour suite every catalog.Store
// engine must pass. Each engine's tests call Run with a function that
// opens a fresh, migrated, empty store.
package storetest

import (
	"context"
	"testing"

	"catalog/internal/catalog"
)

// Opener returns a fresh, migrated, empty store; it registers its own
// cleanup with t.
type Opener func(t *testing.T) catalog.Store

// Run runs every behaviour test against stores made by open, as subtests.
func Run(t *testing.T, open func(t *testing.T) catalog.Store) {
	t.Run("Ping", func(t *testing.T) {
		s := open(t)
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: got %v, want nil", err)
		}
	})
}
