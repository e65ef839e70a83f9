package snapshot

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// sharedLock is what an advisory lock in a shared database gives several
// instances: whoever asks first holds it, the others are told no.
type sharedLock struct {
	mu   sync.Mutex
	held bool
}

func (l *sharedLock) tryLock(context.Context) (func(), bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		return nil, false, nil
	}
	l.held = true
	return func() {
		l.mu.Lock()
		l.held = false
		l.mu.Unlock()
	}, true, nil
}

// gatedStore holds every catalog walk until the gate opens and records
// how many run at once.
type gatedStore struct {
	catalog.MovieStore
	gate    chan struct{}
	entered chan struct{}
	active  atomic.Int64
	most    atomic.Int64
	walks   atomic.Int64
}

func (g *gatedStore) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	n := g.active.Add(1)
	defer g.active.Add(-1)
	for {
		most := g.most.Load()
		if n <= most || g.most.CompareAndSwap(most, n) {
			break
		}
	}
	g.walks.Add(1)
	g.entered <- struct{}{}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.MovieStore.EachMovie(ctx, fn)
}

// Two instances sharing a lock: while one builds, the other builds
// nothing, keeps asking, and builds once the lock is free.
func TestLockOneBuildAtATime(t *testing.T) {
	t.Parallel()
	inner := newTestStore(t)
	addNumbered(t, inner, 1, 5)
	store := &gatedStore{MovieStore: inner, gate: make(chan struct{}), entered: make(chan struct{}, 2)}
	var lock sharedLock
	// asked hears of the lock attempts made while the test listens.
	asked := make(chan struct{})
	tryLock := func(ctx context.Context) (func(), bool, error) {
		unlock, ok, err := lock.tryLock(ctx)
		select {
		case asked <- struct{}{}:
		default:
		}
		return unlock, ok, err
	}
	services := make([]*Service, 2)
	builds := make([]<-chan Build, 2)
	for i := range services {
		services[i] = New(Config{Store: store, Dir: t.TempDir(), Every: time.Hour, Lock: tryLock, LockRetry: time.Millisecond})
		builds[i] = watch(services[i])
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	for _, s := range services {
		wg.Go(func() { s.Run(ctx) })
	}

	<-store.entered
	// The other instance finds the lock taken, again and again.
	for range 5 {
		select {
		case <-asked:
		case <-time.After(10 * time.Second):
			t.Fatal("the other instance did not retry the lock within 10 s")
		}
	}
	if got := store.walks.Load(); got != 1 {
		t.Fatalf("catalog walks while one instance holds the lock: got %d, want 1", got)
	}
	for i, s := range services {
		if s.Status().Ready {
			t.Fatalf("instance %d: ready before any build finished", i)
		}
	}

	close(store.gate)
	<-store.entered
	for _, b := range builds {
		waitBuilt(t, b)
	}
	if got := store.most.Load(); got != 1 {
		t.Errorf("builds at the same moment: got %d, want 1", got)
	}
	if got := store.walks.Load(); got != 2 {
		t.Errorf("catalog walks: got %d, want 2 (one per instance)", got)
	}

	// Another instance holds the lock at the next refresh: this one
	// builds nothing and keeps serving the file it has.
	unlock, ok, _ := lock.tryLock(ctx)
	if !ok {
		t.Fatal("lock still held after both builds")
	}
	defer unlock()
	if err := services[1].refresh(ctx); err != errLockTaken {
		t.Errorf("refresh while the lock is taken: got %v, want errLockTaken", err)
	}
	if r := serve(t, services[1], "GET"); r.status != 200 {
		t.Errorf("snapshot while another instance builds: got %d, want 200", r.status)
	}
}

// A lock that cannot be asked (the database is away) is a failed build:
// logged, retried later, nothing served in between.
func TestLockError(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	s := New(Config{Store: store, Dir: t.TempDir(), Every: time.Hour,
		Lock: func(context.Context) (func(), bool, error) {
			return nil, false, catalog.Errorf(catalog.EUNAVAILABLE, "database unavailable")
		}})
	if err := s.refresh(context.Background()); catalog.ErrorCode(err) != catalog.EUNAVAILABLE {
		t.Errorf("refresh: got %v, want code %s", err, catalog.EUNAVAILABLE)
	}
	if s.Status().Ready {
		t.Errorf("ready after a build that could not take the lock")
	}
}
