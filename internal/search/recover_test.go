package search

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// lockedLog is a log the index writes from its goroutines.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// faultOnce makes the next fault at where panic, once, until the test
// ends; the answer tells whether it fired.
func faultOnce(t *testing.T, where string) *atomic.Bool {
	var fired atomic.Bool
	h := func(w string) {
		if w == where && fired.CompareAndSwap(false, true) {
			panic("injected fault at " + w)
		}
	}
	faultHook.Store(&h)
	t.Cleanup(func() { faultHook.Store(nil) })
	return &fired
}

// eventually waits up to 30 s for cond (a hang, not a timing, fails).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not after 30 s: %s", what)
		}
	}
}

// TestIndexFaultsNeverStopTheService: a panic in each part of the
// index's upkeep (a catch-up run by the background loop or by a
// request, a search, a save, a load of its file, a build) is
// recovered: logged at ERROR with its stack, counted, the index it
// was changing discarded and rebuilt from the database, and every
// answer afterwards is the database's. A file whose load panicked is
// set aside, so the next start does not meet it again. Without the
// recovery each case is a panic of the test binary.
func TestIndexFaultsNeverStopTheService(t *testing.T) {
	cases := []struct {
		where string
		// trigger makes the fault happen on l, which serves w's store.
		trigger  func(t *testing.T, l *Live, w *clipWriter)
		fromFile bool // the index starts from a file written before
	}{
		{"apply", func(t *testing.T, l *Live, w *clipWriter) { // the background loop's catch-up
			w.change(30)
		}, false},
		{"apply", func(t *testing.T, l *Live, w *clipWriter) { // a request's catch-up
			w.change(30)
			v, err := w.s.KindVersion(t.Context(), catalog.SearchClips)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Find(t.Context(), v, Query{Limit: 10}); err != nil && !errors.Is(err, ErrBuilding) {
				t.Fatalf("a request whose catch-up failed: %v, want an answer or ErrBuilding", err)
			}
		}, false},
		{"find", func(t *testing.T, l *Live, w *clipWriter) {
			if _, err := l.Find(t.Context(), 0, Query{Terms: []string{"r"}, Limit: 10}); err != nil && !errors.Is(err, ErrBuilding) {
				t.Fatalf("a search that failed: %v, want an answer or ErrBuilding", err)
			}
		}, false},
		{"save", func(t *testing.T, l *Live, w *clipWriter) {
			w.change(5) // a save is due once the index changed
		}, false},
		{"load", nil, true},
		{"build", nil, false},
	}
	for i, c := range cases {
		t.Run(c.where+string(rune('0'+i)), func(t *testing.T) {
			dir, a, w := seededPair(t, uint64(40+i), 200)
			path := filepath.Join(dir, "clips.index")
			if c.fromFile {
				first := NewLive(a, catalog.SearchClips, nil)
				first.UseFile(path)
				runAndStop(t, first)
			}
			var logs lockedLog
			l := NewLive(a, catalog.SearchClips, slog.New(slog.NewJSONHandler(&logs, nil)))
			l.UseFile(path)
			fired := faultOnce(t, c.where)
			if c.where == "save" {
				l.file.lastWrite = time.Now().Add(-saveEvery) // a save is due at every change
			}
			// Stopped (its last file written) before the test's folders go.
			ctx, stop := context.WithCancel(t.Context())
			t.Cleanup(func() { stop(); l.Wait() })
			l.Start(ctx)
			if c.trigger != nil {
				waitReady(t, l)
				c.trigger(t, l, w)
			}
			eventually(t, "the fault fired and was counted", func() bool { return fired.Load() && l.Stats().Failures == 1 })
			waitReady(t, l)
			w.searchNow(l, w.docs) // the database's answers, from a rebuilt index
			out := logs.String()
			if !strings.Contains(out, `"level":"ERROR"`) || !strings.Contains(out, "injected fault at "+c.where) || !strings.Contains(out, "recover_test.go") {
				t.Fatalf("the fault is not logged at ERROR with its stack:\n%s", out)
			}
			if c.where == "load" {
				if _, err := os.Stat(path + ".bad"); err != nil {
					t.Fatalf("the file whose load panicked was not set aside: %v", err)
				}
			}
			tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp*"))
			if len(tmps) > 0 {
				t.Fatalf("temporary files left behind: %v", tmps)
			}
		})
	}
}

// runAndStop starts l, waits until it is ready, and stops it, which
// writes its file.
func runAndStop(t *testing.T, l *Live) {
	t.Helper()
	ctx, stop := context.WithCancel(t.Context())
	l.Start(ctx)
	waitReady(t, l)
	stop()
	l.Wait()
}

func waitReady(t *testing.T, l *Live) {
	t.Helper()
	eventually(t, "the index is ready", func() bool { return l.WaitReady(t.Context()) == nil })
}

// TestDamagedFileSetAside: an index file cut short, with a bad
// checksum, with bytes changed or of an unknown format is set aside
// (renamed with ".bad") and the index built from the database, which
// writes a good file that the next start serves from: a damaged file
// is never met twice.
func TestDamagedFileSetAside(t *testing.T) {
	spoil := map[string]func([]byte) []byte{
		"cut short":      func(b []byte) []byte { return b[:len(b)/2] },
		"bad checksum":   func(b []byte) []byte { b[len(b)-trailerSize+8] ^= 1; return b },
		"bytes changed":  func(b []byte) []byte { b[len(b)/3] ^= 0x40; b[len(b)/3+1] ^= 0x11; return b },
		"unknown format": func(b []byte) []byte { b[8] = 99; fixSum(b); return b },
	}
	for name, fn := range spoil {
		t.Run(name, func(t *testing.T) {
			dir, a, w := seededPair(t, 9, 100)
			path := filepath.Join(dir, "clips.index")
			l := NewLive(a, catalog.SearchClips, nil)
			l.UseFile(path)
			runAndStop(t, l)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, fn(b), 0o600); err != nil {
				t.Fatal(err)
			}
			l = NewLive(a, catalog.SearchClips, nil)
			l.UseFile(path)
			runAndStop(t, l)
			if s := l.Stats(); s.Builds != 1 || s.FromFile {
				t.Fatalf("%+v, want a build from the database", s)
			}
			if _, err := os.Stat(path + ".bad"); err != nil {
				t.Fatalf("damaged file not set aside: %v", err)
			}
			l = NewLive(a, catalog.SearchClips, nil)
			l.UseFile(path)
			runAndStop(t, l)
			if s := l.Stats(); s.Builds != 0 || !s.FromFile {
				t.Fatalf("the start after: %+v, want served from the new file", s)
			}
			w.searchNow(l, w.docs)
		})
	}
}
