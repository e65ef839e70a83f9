package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// RunStreams checks the warm-up rule ("no request waits after serve
// starts, whatever is still warming up"): with more
// whole-table streams held open than s's request pool has connections
// (s must be opened with a small pool, 2 connections), every kind of
// request read still gets a connection at once; the streams never run
// more at a time than their budget (catalog.RowStreams); and the ones
// kept waiting run when the others end. A store whose streams read on the request pool fails it:
// its request reads time out.
func RunStreams(t *testing.T, s catalog.Store) {
	ctx := context.Background()
	c := catalog.Clip{Title: "Streamed clip", IframeURL: "https://dai.ly/x1", Platform: "JAV"}
	noErr(t, s.CreateClip(ctx, &c), "CreateClip")
	m := catalog.Movie{Name: "Streamed movie"}
	noErr(t, m.Normalize(), "normalize movie")
	movies := []catalog.Movie{m}
	noErr(t, s.UpsertMovies(ctx, movies), "UpsertMovies")
	m = movies[0]

	// Every stream blocks on its first row until release is closed.
	type entry struct {
		name string
		rows bool
	}
	entered := make(chan entry, 16)
	release := make(chan struct{})
	hold := func(e entry) {
		entered <- e
		<-release
	}
	streams := []struct {
		entry
		run func(ctx context.Context, at func()) error
	}{
		{entry{"EachMovie", true}, func(ctx context.Context, at func()) error {
			return s.EachMovie(ctx, func(*catalog.Movie) error { at(); return nil })
		}},
		{entry{"ExportMovies", true}, func(ctx context.Context, at func()) error {
			return s.ExportMovies(ctx, func(*catalog.Movie) error { at(); return nil })
		}},
		{entry{"ExportClips", true}, func(ctx context.Context, at func()) error {
			return s.ExportClips(ctx, func(*catalog.Clip) error { at(); return nil })
		}},
		{entry{"SearchDocs clips", true}, func(ctx context.Context, at func()) error {
			_, err := s.SearchDocs(ctx, catalog.SearchClips, func(catalog.SearchDoc) { at() })
			return err
		}},
		{entry{"SearchDocs movies", true}, func(ctx context.Context, at func()) error {
			_, err := s.SearchDocs(ctx, catalog.SearchMovies, func(catalog.SearchDoc) { at() })
			return err
		}},
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(streams))
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
		wg.Wait()
	}()
	for _, st := range streams {
		wg.Go(func() {
			if err := st.run(ctx, func() { hold(st.entry) }); err != nil {
				errs <- errors.Join(errors.New(st.name), err)
			}
		})
	}
	running := map[bool]int{}
	deadline := time.After(10 * time.Second)
wait:
	for running[true] < catalog.RowStreams {
		select {
		case e := <-entered:
			running[e.rows]++
		case err := <-errs:
			t.Fatalf("stream: %v", err)
		case <-deadline:
			// Streams that share the request pool cannot all start;
			// the reads below then show what that costs.
			t.Errorf("after 10 s, %d row streams run, want %d", running[true], catalog.RowStreams)
			break wait
		}
	}

	// Each read gets 5 s, thousands of times what it needs: one that
	// had to wait for a stream's connection would wait for good.
	reads := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"DataVersion", func(ctx context.Context) error { _, err := s.DataVersion(ctx); return err }},
		{"KindVersion", func(ctx context.Context) error { _, err := s.KindVersion(ctx, catalog.SearchClips); return err }},
		{"GetClip", func(ctx context.Context) error { _, err := s.GetClip(ctx, c.ID); return err }},
		{"GetMovie", func(ctx context.Context) error { _, err := s.GetMovie(ctx, m.ID); return err }},
		{"CountMovies", func(ctx context.Context) error { _, err := s.CountMovies(ctx); return err }},
		{"CountClips", func(ctx context.Context) error { _, err := s.CountClips(ctx); return err }},
		{"VodsByID", func(ctx context.Context) error { _, err := s.VodsByID(ctx, []int64{m.ID}); return err }},
		{"MoviesByID", func(ctx context.Context) error {
			_, err := s.MoviesByID(ctx, []int64{m.ID}, catalog.AllFields(false))
			return err
		}},
		{"ClipsByID", func(ctx context.Context) error { _, err := s.ClipsByID(ctx, []int64{c.ID}); return err }},
		{"SearchChanges", func(ctx context.Context) error {
			_, err := s.SearchChanges(ctx, catalog.SearchClips, 0, 100)
			if errors.Is(err, catalog.ErrSearchLogGap) {
				return nil
			}
			return err
		}},
	}
	for _, r := range reads {
		// Point reads ignore their context's deadline (they detach
		// from it), so the wait is bounded here, not by the context.
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		done := make(chan error, 1)
		wg.Go(func() { done <- r.read(rctx) })
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s while streams hold their connections: %v", r.name, err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s while streams hold their connections: no answer after 5 s", r.name)
		}
		cancel()
	}

	// No stream beyond the budgets started meanwhile.
	select {
	case e := <-entered:
		t.Errorf("stream %s started while the budget was full (%d row streams running)", e.name, running[true])
	case <-time.After(100 * time.Millisecond):
	}

	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("stream: %v", err)
	}
	close(entered)
	n := running[true] + running[false]
	for range entered {
		n++
	}
	if n != len(streams) {
		t.Errorf("%d of %d streams read their row, want every one once the others ended", n, len(streams))
	}
}
