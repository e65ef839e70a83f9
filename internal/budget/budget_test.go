package budget

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestBudget(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		b := New(2)
		ctx := context.Background()
		for range 2 {
			if err := b.Acquire(ctx); err != nil {
				t.Fatal(err)
			}
		}
		short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := b.Acquire(short); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 20*time.Millisecond {
			t.Fatalf("third Acquire on a full budget: got %v after %v, want the deadline after 20ms", err, time.Since(start))
		}
		b.Release()
		if err := b.Acquire(ctx); err != nil {
			t.Fatalf("Acquire after a Release: %v", err)
		}
		b.Release()
		done, cancelNow := context.WithCancel(ctx)
		cancelNow()
		if err := b.Acquire(done); !errors.Is(err, context.Canceled) {
			t.Errorf("Acquire with a free slot and a cancelled request: got %v, want context.Canceled", err)
		}
	})
}
