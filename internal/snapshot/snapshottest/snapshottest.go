// Package snapshottest lets a test wait for the builds of a snapshot
// service instead of polling it.
package snapshottest

import (
	"testing"
	"time"

	"catalog/internal/snapshot"
)

// Watch sets cfg.Observe so that every build the service reports also
// arrives on the returned channel; call it before snapshot.New. A build
// that finds the channel full is not delivered rather than stalling the
// build loop.
func Watch(cfg *snapshot.Config) <-chan snapshot.Build {
	builds := make(chan snapshot.Build, 16)
	cfg.Observe = func(b snapshot.Build) {
		select {
		case builds <- b:
		default:
		}
	}
	return builds
}

// WaitBuilt waits for the next build on builds and fails the test
// unless it succeeded; the 60 s deadline only catches a hang.
func WaitBuilt(t testing.TB, builds <-chan snapshot.Build) {
	t.Helper()
	select {
	case b := <-builds:
		if b.Err != nil {
			t.Fatalf("snapshot build: %v", b.Err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no snapshot build within 60 s")
	}
}
