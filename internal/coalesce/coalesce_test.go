package coalesce

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// runs records every run's calls and context, and holds each run until
// release is closed when hold is set.
type runs struct {
	mu      sync.Mutex
	calls   [][]int
	ctxs    []context.Context
	hold    bool
	release chan struct{}
}

func (r *runs) run(ctx context.Context, calls []*int) {
	r.mu.Lock()
	var ids []int
	for _, c := range calls {
		ids = append(ids, *c)
	}
	r.calls = append(r.calls, ids)
	r.ctxs = append(r.ctxs, ctx)
	hold, release := r.hold, r.release
	r.mu.Unlock()
	if hold {
		<-release
	}
	for _, c := range calls {
		*c = -*c // the call's answer
	}
}

func (r *runs) seen() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// An idle group runs a call at once, alone, on its caller's context.
func TestRunAloneWhenIdle(t *testing.T) {
	r := &runs{}
	g := New(1, 10, time.Minute, r.run)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "caller")
	v := 7
	if err := g.Do(ctx, &v); err != nil || v != -7 {
		t.Fatalf("Do = %v, answer %d; want nil, -7", err, v)
	}
	if r.ctxs[0] != ctx {
		t.Errorf("the run's context is not the caller's")
	}
	if got := r.seen(); !slices.EqualFunc(got, [][]int{{7}}, slices.Equal) {
		t.Errorf("runs %v, want [[7]]", got)
	}
}

// While every slot is busy, the calls that arrive wait and run
// together, in arrival order and up to max a run, once a slot is free;
// none joins a run under way, and the slot is given up when nothing
// waits.
func TestWaitingCallsRunTogether(t *testing.T) {
	tests := []struct {
		name    string
		waiting int
		max     int
		want    [][]int
	}{
		{"one run", 3, 10, [][]int{{1}, {2, 3, 4}}},
		{"bounded", 5, 2, [][]int{{1}, {2, 3}, {4, 5}, {6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := &runs{hold: true, release: make(chan struct{})}
				g := New(1, tt.max, time.Minute, r.run)
				answers := make([]int, tt.waiting+1)
				for i := range answers {
					answers[i] = i + 1
					go g.Do(context.Background(), &answers[i])
					synctest.Wait() // one at a time, so the order is known
				}
				if got := r.seen(); len(got) != 1 {
					t.Fatalf("while the first run is under way: runs %v, want only it", got)
				}
				close(r.release)
				synctest.Wait()
				if got := r.seen(); !slices.EqualFunc(got, tt.want, slices.Equal) {
					t.Fatalf("runs %v, want %v", got, tt.want)
				}
				for i, a := range answers {
					if a != -(i + 1) {
						t.Errorf("call %d answered %d, want %d", i+1, a, -(i + 1))
					}
				}
				g.mu.Lock()
				defer g.mu.Unlock()
				if g.busy != 0 || len(g.waiting) != 0 {
					t.Errorf("after the runs: %d slots busy, %d calls waiting; want none", g.busy, len(g.waiting))
				}
			})
		})
	}
}

// A waiting call returns at its own context's end, and is left out of
// the next run; a shared run ends at the latest of its calls'
// deadlines, or after the group's timeout when one has none.
func TestContextsOfWaitingCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &runs{hold: true, release: make(chan struct{})}
		g := New(1, 10, time.Minute, r.run)
		first := 1
		go g.Do(context.Background(), &first)
		synctest.Wait()

		start := time.Now()
		do := func(v *int, timeout time.Duration, err *error) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
			}
			defer cancel()
			*err = g.Do(ctx, v)
		}
		short, long := 2, 3
		var shortErr, longErr error
		go do(&short, time.Second, &shortErr)
		go do(&long, 5*time.Second, &longErr)
		synctest.Wait()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if !errors.Is(shortErr, context.DeadlineExceeded) {
			t.Errorf("past its deadline: %v, want context.DeadlineExceeded", shortErr)
		}
		close(r.release)
		synctest.Wait()
		if got, want := r.seen(), [][]int{{1}, {3}}; !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("runs %v, want %v (the ended call left out)", got, want)
		}
		if longErr != nil || long != -3 {
			t.Errorf("the waiting call: %v, answer %d", longErr, long)
		}
		if d, ok := r.ctxs[1].Deadline(); !ok || !d.Equal(start.Add(5*time.Second)) {
			t.Errorf("shared run's deadline %v (%v), want the call's, %v", d, ok, start.Add(5*time.Second))
		}

		// A call without a deadline: the run gets the group's timeout.
		r.mu.Lock()
		r.release = make(chan struct{})
		r.mu.Unlock()
		go g.Do(context.Background(), &first)
		synctest.Wait()
		var noDeadline, deadline error
		go do(new(int), 0, &noDeadline)
		go do(new(int), 3*time.Second, &deadline)
		synctest.Wait()
		at := time.Now()
		close(r.release)
		synctest.Wait()
		if noDeadline != nil || deadline != nil {
			t.Errorf("the shared run's calls: %v, %v", noDeadline, deadline)
		}
		synctest.Wait()
		if d, ok := r.ctxs[3].Deadline(); !ok || !d.Equal(at.Add(time.Minute)) {
			t.Errorf("shared run's deadline %v (%v), want the timeout's, %v", d, ok, at.Add(time.Minute))
		}
	})
}
