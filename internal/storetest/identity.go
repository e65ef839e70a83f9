package storetest

import (
	"context"
	"testing"

	"catalog/internal/catalog"
)

// runIdentity checks the database identity search index files are
// matched with: the same at every call, another for another database.
func runIdentity(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	a, b := open(t), open(t)
	idA, err := a.Identity(ctx)
	noErr(t, err, "Identity")
	again, err := a.Identity(ctx)
	noErr(t, err, "Identity")
	idB, err := b.Identity(ctx)
	noErr(t, err, "Identity")
	if idA == "" || idA != again {
		t.Fatalf("Identity: %q then %q, want one non-empty value", idA, again)
	}
	if idA == idB {
		t.Fatalf("two databases share the identity %q", idA)
	}
}
