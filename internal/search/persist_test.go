package search_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fold"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
)

// logBuffer is a slog destination tests can read while the index runs.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// seedClips stores n clips titled "alpha <i>" through st.
func seedClips(t *testing.T, st store, n int) {
	t.Helper()
	var clips []catalog.Clip
	for i := range n {
		clips = append(clips, catalog.Clip{Title: fmt.Sprintf("alpha %d", i+1), IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", Platform: "JAV"})
	}
	if err := st.ImportClips(t.Context(), clips); err != nil {
		t.Fatal(err)
	}
}

// runOnce starts an index of clips over st with its file at path, waits
// until it is ready, stops it (which writes the file) and returns its
// stats. They are read once it has stopped: a build is ready a moment
// before it is counted.
func runOnce(t *testing.T, st catalog.Store, path string, log *slog.Logger) search.Stats {
	t.Helper()
	ctx, stop := context.WithCancel(t.Context())
	l := search.NewLive(st, catalog.SearchClips, log)
	l.UseFile(path)
	l.Start(ctx)
	searchtest.WaitReady(t, l)
	stop()
	l.Wait()
	return l.Stats()
}

// ids answers q from l at the database's current version.
func ids(t *testing.T, l *search.Live, st catalog.SearchLog, q string) []int64 {
	t.Helper()
	v, err := st.KindVersion(t.Context(), catalog.SearchClips)
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Find(t.Context(), v, search.Query{Terms: catalog.SearchTerms(q), Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return r.IDs
}

// TestRestartServesFromTheFile: an index stopped writes its file; the
// next start serves from it, brought up to date with the writes another
// handle made while it was down, though its builds from the database
// are held and never finish.
func TestRestartServesFromTheFile(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			a, b := openPair(t, e.dsn(t), e.open)
			seedClips(t, b, 50)
			path := filepath.Join(t.TempDir(), "clips.index")
			if s := runOnce(t, a, path, nil); s.Builds != 1 || s.FromFile {
				t.Fatalf("first start: %+v, want one build", s)
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("no index file after a stop: %v", err)
			}
			// While it is down: a new clip, an edit, a delete.
			c := catalog.Clip{Title: "omega new", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
			if err := b.CreateClip(t.Context(), &c); err != nil {
				t.Fatal(err)
			}
			if _, err := b.UpdateClip(t.Context(), 2, func(c *catalog.Clip) error { c.Title = "omega edited"; return nil }); err != nil {
				t.Fatal(err)
			}
			if err := b.DeleteClip(t.Context(), 3); err != nil {
				t.Fatal(err)
			}

			held := searchtest.Hold(b) // never released: no build can finish; another handle
			l := search.NewLive(held, catalog.SearchClips, nil)
			l.UseFile(path)
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			l.Start(ctx)
			searchtest.WaitReady(t, l)
			if got, want := ids(t, l, a, "omega"), []int64{c.ID, 2}; !slices.Equal(got, want) {
				t.Fatalf("omega: %v, want %v", got, want)
			}
			got := ids(t, l, a, "alpha")
			if len(got) != 48 || slices.Contains(got, 2) || slices.Contains(got, 3) {
				t.Fatalf("alpha: %d ids %v, want the 48 not edited or deleted", len(got), got)
			}
			// Read once the index has stopped: it is ready a moment before
			// it records where it started from.
			stop()
			l.Wait()
			if s := l.Stats(); s.Builds != 0 || !s.FromFile {
				t.Fatalf("restart: %+v, want served from the file with no build", s)
			}
		})
	}
}

// TestUnusableFileRebuilds: a file of another database, one cut short,
// one with a byte changed, one behind a pruned log, one of another fold
// (fold.Version) and one newer than the database are each a logged reason and a build from the database,
// never used, and the index answers from the database's records.
func TestUnusableFileRebuilds(t *testing.T) {
	cases := []struct {
		name string
		// spoil makes the file at path unusable for the database of a
		// and b (a second handle).
		spoil func(t *testing.T, path string, a, b store)
		log   string
	}{
		{"another database", func(t *testing.T, path string, a, b store) {
			other, _ := openPair(t, filepath.Join(t.TempDir(), "other.db"), engines[0].open)
			seedClips(t, other, 60)
			os.Remove(path)
			runOnce(t, other, path, nil)
		}, "the file belongs to another database"},
		{"cut short", func(t *testing.T, path string, a, b store) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, "index file refused"},
		{"a byte changed", func(t *testing.T, path string, a, b store) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/3] ^= 0x40
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "checksum mismatch"},
		{"behind a pruned log", func(t *testing.T, path string, a, b store) {
			if err := b.DeleteClip(t.Context(), 5); err != nil {
				t.Fatal(err)
			}
			v, err := b.KindVersion(t.Context(), catalog.SearchClips)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.PruneSearchLog(t.Context(), catalog.SearchClips, v); err != nil {
				t.Fatal(err)
			}
		}, "too far behind the search log"},
		{"another kind", func(t *testing.T, path string, a, b store) {
			rewriteHeader(t, path, func(h *search.FileHeader) { h.Kind = int(catalog.SearchMovies) })
		}, "the file holds another kind of record"},
		{"of the old fold", func(t *testing.T, path string, a, b store) {
			// As written before the fold version was recorded (0, fold 1).
			rewriteHeader(t, path, func(h *search.FileHeader) { h.Fold = 0 })
		}, "the file's search text is of fold version 1, this program folds with version 2"},
		{"of another fold", func(t *testing.T, path string, a, b store) {
			rewriteHeader(t, path, func(h *search.FileHeader) { h.Fold = fold.Version + 1 })
		}, "the file's search text is of fold version 3"},
		{"newer than the database", func(t *testing.T, path string, a, b store) {
			// As after a restore of an older copy of the same database.
			rewriteHeader(t, path, func(h *search.FileHeader) { h.Version += 1000 })
		}, "the file is newer than the database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := openPair(t, filepath.Join(t.TempDir(), "t.db"), engines[0].open)
			seedClips(t, b, 40)
			path := filepath.Join(t.TempDir(), "clips.index")
			runOnce(t, a, path, nil)
			c.spoil(t, path, a, b)
			var logs logBuffer
			s := runOnce(t, a, path, logs.logger())
			if s.Builds != 1 || s.FromFile {
				t.Fatalf("%+v, want a build, not the file", s)
			}
			if !bytes.Contains([]byte(logs.String()), []byte(c.log)) {
				t.Fatalf("log does not say %q:\n%s", c.log, logs.String())
			}
			l := search.NewLive(a, catalog.SearchClips, nil)
			l.UseFile(path) // written by the build above: usable again
			l.Start(t.Context())
			searchtest.WaitReady(t, l)
			want := 40
			if c.name == "behind a pruned log" {
				want = 39
			}
			if got := ids(t, l, a, "alpha"); len(got) != want {
				t.Fatalf("alpha: %d ids, want %d", len(got), want)
			}
			if s := l.Stats(); !s.FromFile {
				t.Fatalf("after the rebuild wrote the file: %+v, want served from it", s)
			}
		})
	}
}

// rewriteHeader writes the index file at path again with its header
// changed by fn.
func rewriteHeader(t *testing.T, path string, fn func(*search.FileHeader)) {
	t.Helper()
	ix, h, err := search.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fn(&h)
	if err := ix.WriteFile(path, h); err != nil {
		t.Fatal(err)
	}
}

// TestFileWrittenWhileServing: the file is written after the build,
// then again ten minutes after the last write once the index changed,
// not before.
func TestFileWrittenWhileServing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := openPair(t, filepath.Join(t.TempDir(), "t.db"), engines[0].open)
		seedClips(t, b, 10)
		path := filepath.Join(t.TempDir(), "clips.index")
		ctx, stop := context.WithCancel(t.Context())
		defer stop()
		l := search.NewLive(a, catalog.SearchClips, nil)
		l.UseFile(path)
		l.Start(ctx)
		searchtest.WaitReady(t, l)
		time.Sleep(2 * time.Second) // the next tick writes the build
		version := func() int64 {
			t.Helper()
			h, err := search.ReadFileHeader(path)
			if err != nil {
				t.Fatal(err)
			}
			return h.Version
		}
		built := version()
		c := catalog.Clip{Title: "later", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
		if err := b.CreateClip(t.Context(), &c); err != nil {
			t.Fatal(err)
		}
		time.Sleep(9 * time.Minute)
		if v := version(); v != built {
			t.Fatalf("file at version %d after 9 minutes, want still %d", v, built)
		}
		time.Sleep(2 * time.Minute)
		want, err := a.KindVersion(t.Context(), catalog.SearchClips)
		if err != nil {
			t.Fatal(err)
		}
		if v := version(); v != want {
			t.Fatalf("file at version %d after 11 minutes, want %d", v, want)
		}
		stop()
		l.Wait()
	})
}
