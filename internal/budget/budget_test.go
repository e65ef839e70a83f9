package budget

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	b := New(2)
	ctx := context.Background()
	for range 2 {
		if err := b.Acquire(ctx); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := b.Acquire(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third Acquire on a full budget: got %v, want the deadline", err)
	}
	b.Release()
	if err := b.Acquire(ctx); err != nil {
		t.Fatalf("Acquire after a Release: %v", err)
	}
}
