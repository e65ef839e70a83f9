package edge

import (
	"context"

	"catalog/internal/catalog"
)

// Announcing returns st with every write announcing, once it has
// committed, the keys it changed to p: one announcement per call, so an
// import announces once per batch (transaction). Wrapping the store
// rather than the handlers covers every path that writes (the API, the
// console's clip and movie forms, imports by file, upload or API,
// seeding) without each remembering to. A new write method on
// catalog.Store must get its override here, or it will not purge. With
// a nil p, st is returned as it is.
func Announcing(st catalog.Store, p *Purger) catalog.Store {
	if p == nil {
		return st
	}
	return announcingStore{wrapped{st}, &announcing{st: st, p: p}}
}

// announcingStore is st with the write methods of *announcing, which is
// embedded one level shallower than st's, so that they win.
type announcingStore struct {
	wrapped
	*announcing
}

type wrapped struct{ catalog.Store }

// announcing is the writes of st, announced to p.
type announcing struct {
	st catalog.Store
	p  *Purger
}

func (a *announcing) CreateClip(ctx context.Context, c *catalog.Clip) error {
	if err := a.st.CreateClip(ctx, c); err != nil {
		return err
	}
	// The new clip's detail may sit at the edge as nothing (errors are
	// never cached), but lists and totals change.
	a.p.Announce(Clips, ClipKey(c.ID))
	return nil
}

func (a *announcing) UpdateClip(ctx context.Context, id int64, fn func(*catalog.Clip) error) (catalog.Clip, error) {
	c, err := a.st.UpdateClip(ctx, id, fn)
	if err == nil {
		a.p.Announce(Clips, ClipKey(id))
	}
	return c, err
}

func (a *announcing) DeleteClip(ctx context.Context, id int64) error {
	if err := a.st.DeleteClip(ctx, id); err != nil {
		return err
	}
	a.p.Announce(Clips, ClipKey(id))
	return nil
}

func (a *announcing) ImportClips(ctx context.Context, clips []catalog.Clip) error {
	if err := a.st.ImportClips(ctx, clips); err != nil {
		return err
	}
	a.p.Announce(batchKeys(Clips, ClipKey, len(clips), func(i int) int64 { return clips[i].ID })...)
	return nil
}

func (a *announcing) UpsertMovies(ctx context.Context, movies []catalog.Movie) error {
	if err := a.st.UpsertMovies(ctx, movies); err != nil {
		return err
	}
	// UpsertMovies wrote the matched or assigned ids back.
	a.p.Announce(batchKeys(Movies, MovieKey, len(movies), func(i int) int64 { return movies[i].ID })...)
	return nil
}

func (a *announcing) UpdateMovie(ctx context.Context, m *catalog.Movie) error {
	if err := a.st.UpdateMovie(ctx, m); err != nil {
		return err
	}
	a.p.Announce(Movies, MovieKey(m.ID))
	return nil
}

func (a *announcing) CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error {
	if err := a.st.CollectMovies(ctx, source, page); err != nil {
		return err
	}
	// CollectMovies wrote the ids back; a record it could not write has
	// 0, and one it skipped as unchanged is no change to announce.
	written := make([]int64, 0, len(page))
	for i := range page {
		if !page[i].Unchanged && page[i].Movie.ID > 0 {
			written = append(written, page[i].Movie.ID)
		}
	}
	if len(written) == 0 {
		return nil
	}
	a.p.Announce(batchKeys(Movies, MovieKey, len(written), func(i int) int64 { return written[i] })...)
	return nil
}

func (a *announcing) DeleteMovie(ctx context.Context, id int64) error {
	if err := a.st.DeleteMovie(ctx, id); err != nil {
		return err
	}
	a.p.Announce(Movies, MovieKey(id))
	return nil
}

// batchKeys is the collection key and, for a batch small enough to
// name, the item keys (ids not yet known, zero, are left out).
func batchKeys(collection string, item func(int64) string, n int, id func(int) int64) []string {
	keys := []string{collection}
	if n > MaxItemKeys {
		return keys
	}
	for i := range n {
		if v := id(i); v > 0 {
			keys = append(keys, item(v))
		}
	}
	return keys
}
