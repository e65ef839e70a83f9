package search

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
)

func openSQLite(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// seededPair opens two handles on a new SQLite database in dir, and
// makes n random changes through the second one (w).
func seededPair(t *testing.T, seed uint64, n int) (dir string, a *sqlite.Store, w *clipWriter) {
	t.Helper()
	dir = t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	a = openSQLite(t, dbPath)
	w = &clipWriter{t: t, s: openSQLite(t, dbPath), r: rand.New(rand.NewPCG(seed, seed+1)), docs: map[int64]Doc{}}
	w.change(n)
	return dir, a, w
}

// clipWriter changes clips through its own handle (another instance)
// and keeps docs, what the index must hold.
type clipWriter struct {
	t    *testing.T
	s    *sqlite.Store
	r    *rand.Rand
	docs map[int64]Doc
}

var saveWords = []string{"river", "stone", "night", "kyoto", "bay", "ตอนที่", "夕暮れ"}

func (w *clipWriter) title() string {
	return saveWords[w.r.IntN(len(saveWords))] + " " + saveWords[w.r.IntN(len(saveWords))] + fmt.Sprint(w.r.IntN(50))
}

// change makes n random creates, edits and deletes.
func (w *clipWriter) change(n int) {
	w.t.Helper()
	ctx := w.t.Context()
	for range n {
		ids := slices.Collect(maps.Keys(w.docs))
		switch k := w.r.IntN(3); {
		case k == 0 || len(ids) == 0:
			c := catalog.Clip{Title: w.title(), IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
			if err := w.s.CreateClip(ctx, &c); err != nil {
				w.t.Fatal(err)
			}
			w.docs[c.ID] = Doc{ID: c.ID, Fold: catalog.SearchText(c.Title, "")}
		case k == 1:
			id := ids[w.r.IntN(len(ids))]
			c, err := w.s.UpdateClip(ctx, id, func(c *catalog.Clip) error { c.Title = w.title(); return nil })
			if err != nil {
				w.t.Fatal(err)
			}
			w.docs[id] = Doc{ID: id, Fold: catalog.SearchText(c.Title, "")}
		default:
			id := ids[w.r.IntN(len(ids))]
			if err := w.s.DeleteClip(ctx, id); err != nil {
				w.t.Fatal(err)
			}
			delete(w.docs, id)
		}
	}
}

// searchNow searches l for each word at the database's current
// version, which needs a catch-up, and fails when an answer differs
// from docs or does not come while the save is held.
func (w *clipWriter) searchNow(l *Live, docs map[int64]Doc) {
	w.t.Helper()
	v, err := w.s.KindVersion(w.t.Context(), catalog.SearchClips)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, word := range append(saveWords, "r", "ver 1") {
		terms := catalog.SearchTerms(word)
		answer := make(chan Result, 1)
		go func() {
			r, err := l.Find(w.t.Context(), v, Query{Terms: terms, Limit: 1000})
			if err != nil {
				w.t.Error(err)
			}
			answer <- r
		}()
		var r Result
		select {
		case r = <-answer:
		case <-time.After(30 * time.Second):
			w.t.Fatalf("a search at version %d waited for the index file's write", v)
		}
		if want := brute(docs, terms, nil); !slices.Equal(r.IDs, want) {
			w.t.Fatalf("%q at version %d: %v, want %v", word, v, r.IDs, want)
		}
	}
}

// TestSaveLeavesCatchUpsFree: while the index file is being written
// (held in the middle by the test), another instance's writes are
// caught up and searches that need them are answered. The file then
// holds exactly the version it says, the index mapped from it serves
// with every change made meanwhile, and a restart from the file plus
// the log answers like a fresh build. A write that fails midway leaves
// the index serving with its changes, and the next one succeeds.
func TestSaveLeavesCatchUpsFree(t *testing.T) {
	dir, a, w := seededPair(t, 7, 200)
	idxDir := filepath.Join(dir, "index")
	if err := os.Mkdir(idxDir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(idxDir, "clips.index")
	l := NewLive(a, catalog.SearchClips, nil)
	l.UseFile(path)
	l.started.Do(func() {}) // no run loop: the test calls save
	l.build(t.Context())

	// hold makes the next save stop after its first section until the
	// returned function is called; meanwhile, spoil (if set) runs.
	hold := func(spoil func()) (reached <-chan struct{}, release func()) {
		r, go_ := make(chan struct{}), make(chan struct{})
		first := true
		l.file.afterSection = func(string) {
			if first {
				first = false
				close(r)
				<-go_
				if spoil != nil {
					spoil()
				}
			}
		}
		return r, func() { close(go_) }
	}
	save := func() <-chan struct{} {
		done := make(chan struct{})
		go func() { l.save(); close(done) }()
		return done
	}

	for cycle, fails := range []bool{false, true, false} {
		var spoil func()
		if fails { // the folder goes: the rename fails
			spoil = func() { os.RemoveAll(idxDir) }
		}
		atFreeze := maps.Clone(w.docs)
		frozenAt, err := w.s.KindVersion(t.Context(), catalog.SearchClips)
		if err != nil {
			t.Fatal(err)
		}
		before := l.st.Load()
		reached, release := hold(spoil)
		done := save()
		<-reached
		for range 4 {
			w.change(15)
			w.searchNow(l, w.docs)
		}
		release()
		<-done
		if fails {
			if l.st.Load() != before {
				t.Fatalf("cycle %d: a failed write replaced the index", cycle)
			}
			w.searchNow(l, w.docs)
			if err := os.Mkdir(idxDir, 0o700); err != nil {
				t.Fatal(err)
			}
			continue
		}
		file, h, err := OpenFile(path)
		if err != nil || h.Version != frozenAt {
			t.Fatalf("cycle %d: file at version %d (%v), want %d, the version of the freeze", cycle, h.Version, err, frozenAt)
		}
		for _, word := range saveWords {
			terms := catalog.SearchTerms(word)
			if got, want := file.Find(Query{Terms: terms, Limit: 1000}), brute(atFreeze, terms, nil); !slices.Equal(got.IDs, want) {
				t.Fatalf("cycle %d: the file: %q: %v, want %v", cycle, word, got.IDs, want)
			}
		}
		if st := l.st.Load(); st == before || st.ix.grams.blobs == nil {
			t.Fatalf("cycle %d: the index was not replaced by the one mapped from its file", cycle)
		}
		w.searchNow(l, w.docs) // no change lost
	}

	// A restart: the file plus the log's catch-up, against a fresh build.
	w.change(20)
	restarted := NewLive(a, catalog.SearchClips, nil)
	restarted.UseFile(path)
	restarted.started.Do(func() {})
	if !restarted.open(t.Context()) {
		t.Fatal("the file written last did not open")
	}
	fresh := NewLive(a, catalog.SearchClips, nil)
	fresh.started.Do(func() {})
	fresh.build(t.Context())
	for _, word := range append(saveWords, "r", "1", "ver 1") {
		terms := catalog.SearchTerms(word)
		got, err := restarted.Find(t.Context(), 0, Query{Terms: terms, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Find(t.Context(), 0, Query{Terms: terms, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.IDs, want.IDs) || !slices.Equal(got.IDs, brute(w.docs, terms, nil)) {
			t.Fatalf("%q after a restart: %v, a fresh build %v", word, got.IDs, want.IDs)
		}
	}
}

// TestSavesUnderChanges: saves run back to back while another instance
// writes and searches catch up (run with -race): every answer matches
// the records, whichever index (frozen, adopted, thawed) serves it.
func TestSavesUnderChanges(t *testing.T) {
	dir, a, w := seededPair(t, 9, 300)
	l := NewLive(a, catalog.SearchClips, nil)
	l.UseFile(filepath.Join(dir, "clips.index"))
	l.started.Do(func() {}) // no run loop: the goroutine below saves
	l.build(t.Context())
	// The saver runs until the changes end; the changes go on until the
	// saver has written several files beside them (at least 40 rounds),
	// so a loaded machine that schedules the saver late still tests
	// saves interleaved with changes instead of failing.
	var saves atomic.Int64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		last := int64(-1)
		for {
			select {
			case <-stop:
				return
			default:
			}
			l.save() // writes when the index changed since the last
			l.file.mu.Lock()
			if l.file.savedAt != last {
				last = l.file.savedAt
				saves.Add(1)
			}
			l.file.mu.Unlock()
		}
	}()
	rounds := 0
	for ; rounds < 40 || (saves.Load() < 3 && rounds < 4000); rounds++ {
		w.change(5)
		w.searchNow(l, w.docs)
	}
	close(stop)
	<-stopped
	if n := saves.Load(); n < 3 {
		t.Fatalf("%d saves ran beside %d rounds of changes, want several", n, rounds)
	}
	t.Logf("%d saves wrote a file beside %d rounds of 5 changes and searches", saves.Load(), rounds)
	w.searchNow(l, w.docs)
}
