package budget

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	for _, tt := range []struct{ pool, want int }{{1, 1}, {2, 1}, {4, 2}, {9, 4}, {32, 16}} {
		if got := ForPool(tt.pool).Cap(); got != tt.want {
			t.Errorf("ForPool(%d).Cap() = %d, want %d", tt.pool, got, tt.want)
		}
	}
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
