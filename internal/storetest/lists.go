package storetest

import (
	"context"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
)

// Every list is answered by the in-process index (internal/search) over
// the store's search documents, then one keyed read of the page. These
// read the lists as the services do, from an index built from the store
// at the time of the call, so that the rules of each list hold for
// what every engine feeds the index and reads back.

func liveOf(tb testing.TB, s catalog.Store, kind catalog.SearchKind) *search.Live {
	tb.Helper()
	return searchtest.Start(tb, s, kind)
}

// Clips is a page of the clip list f selects, and its total, read as
// the services read it (first page of 20 when f has no paging).
func Clips(tb testing.TB, s catalog.Store, f catalog.ClipFilter) ([]catalog.Clip, int64) {
	tb.Helper()
	if f.Paging == (catalog.Paging{}) {
		f.Paging = firstPage
	}
	clips, total, err := liveOf(tb, s, catalog.SearchClips).Clips(context.Background(), 0, f)
	noErr(tb, err, "clip list")
	return clips, total
}

func listClips(tb testing.TB, s catalog.Store, f catalog.ClipFilter) ([]int64, int64) {
	tb.Helper()
	clips, total := Clips(tb, s, f)
	return idsOf(clips, func(c catalog.Clip) int64 { return c.ID }), total
}

// Movies is a page of the movie list f selects, with every field, and
// its total, read as the services read it (first page of 20 when f has
// no paging).
func Movies(tb testing.TB, s catalog.Store, f catalog.MovieFilter) ([]catalog.Movie, int64) {
	tb.Helper()
	if f.Paging == (catalog.Paging{}) {
		f.Paging = firstPage
	}
	movies, total, err := liveOf(tb, s, catalog.SearchMovies).Movies(context.Background(), 0, f, catalog.AllFields(false))
	noErr(tb, err, "movie list")
	return movies, total
}

func listMovies(tb testing.TB, s catalog.Store, f catalog.MovieFilter) ([]int64, int64) {
	tb.Helper()
	movies, total := Movies(tb, s, f)
	return idsOf(movies, func(m catalog.Movie) int64 { return m.ID }), total
}

func listVods(tb testing.TB, s catalog.Store, f catalog.VodFilter) ([]catalog.Vod, []int64, int64) {
	tb.Helper()
	if f.Paging == (catalog.Paging{}) {
		f.Paging = firstPage
	}
	vods, total, err := liveOf(tb, s, catalog.SearchMovies).Vods(context.Background(), 0, f)
	noErr(tb, err, "resource API list")
	if vods == nil {
		tb.Fatalf("resource API list: got a nil page, want an empty slice")
	}
	return vods, idsOf(vods, func(v catalog.Vod) int64 { return v.ID }), total
}

// idsOf is the ids of a page's records, in order.
func idsOf[T any](page []T, id func(T) int64) []int64 {
	ids := make([]int64, len(page))
	for i, r := range page {
		ids[i] = id(r)
	}
	return ids
}
