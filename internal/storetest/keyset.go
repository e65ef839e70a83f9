package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"catalog/internal/catalog"
)

// runKeyset checks catalog.KeysetStore: the id walks agree with the
// OFFSET lists and carry the data version, and a seek from any id gives
// the same page as OFFSET.
func runKeyset(t *testing.T, open func(t *testing.T) catalog.Store) {
	setup := func(t *testing.T) (catalog.Store, catalog.KeysetStore) {
		s := open(t)
		ks, ok := s.(catalog.KeysetStore)
		if !ok {
			t.Fatalf("%T does not implement catalog.KeysetStore", s)
		}
		for i := range 30 {
			createClip(t, s, fmt.Sprintf("clip %d", i), []string{"JAV", "ทวิต", ""}[i%3])
		}
		// A gap in the ids, as deletes leave.
		noErr(t, s.DeleteClip(context.Background(), 7), "DeleteClip")
		var movies []*catalog.Movie
		for i := range 12 {
			m := newMovie(t, fmt.Sprintf("movie %d", i), fmt.Sprintf("K-%d", i))
			movies = append(movies, &m)
		}
		upsert(t, s, movies...)
		return s, ks
	}

	t.Run("ClipIDsMatchTheList", func(t *testing.T) {
		s, ks := setup(t)
		for _, platform := range []string{"", "JAV", "ทวิต", "JAVJAV"} {
			want, _ := listClips(t, s, catalog.ClipFilter{Platform: platform})
			var got []int64
			version, err := ks.ClipIDs(context.Background(), platform, func(id int64) { got = append(got, id) })
			noErr(t, err, "ClipIDs")
			if !slices.Equal(got, want) {
				t.Errorf("platform %q: got ids %v, want %v", platform, got, want)
			}
			now, err := s.(catalog.SearchLog).KindVersion(context.Background(), catalog.SearchClips)
			noErr(t, err, "KindVersion")
			if version != now {
				t.Errorf("platform %q: got version %d, want the current %d", platform, version, now)
			}
		}
	})

	t.Run("MovieIDsMatchTheList", func(t *testing.T) {
		s, ks := setup(t)
		want, _ := listMovies(t, s, catalog.MovieFilter{Paging: firstPage})
		var got []int64
		version, err := ks.MovieIDs(context.Background(), func(id int64) { got = append(got, id) })
		noErr(t, err, "MovieIDs")
		if !slices.Equal(got, want) {
			t.Errorf("got ids %v, want %v", got, want)
		}
		if now, _ := s.(catalog.SearchLog).KindVersion(context.Background(), catalog.SearchMovies); version != now {
			t.Errorf("got version %d, want the current %d", version, now)
		}
	})

	t.Run("SeeksMatchOffsetPages", func(t *testing.T) {
		s, ks := setup(t)
		for _, platform := range []string{"", "JAV"} {
			all, _ := listClips(t, s, catalog.ClipFilter{Platform: platform})
			for start := range all {
				for _, skip := range []int64{0, 1, 3} {
					want, _ := listClips(t, s, catalog.ClipFilter{Platform: platform, Paging: catalog.Paging{Page: 1, Limit: int64(len(all))}})
					want = want[min(len(want), start+int(skip)):]
					want = want[:min(len(want), 4)]
					clips, err := ks.ClipsFrom(context.Background(), platform, all[start], skip, 4)
					noErr(t, err, "ClipsFrom")
					got := make([]int64, len(clips))
					for i, c := range clips {
						got[i] = c.ID
						if platform != "" && c.Platform != platform {
							t.Errorf("platform %q: clip %d has platform %q", platform, c.ID, c.Platform)
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("platform %q, from %d, skip %d: got %v, want %v", platform, all[start], skip, got, want)
					}
				}
			}
		}
		clips, err := ks.ClipsFrom(context.Background(), "", 30, 0, 1)
		noErr(t, err, "ClipsFrom")
		if len(clips) != 1 || clips[0] != getClip(t, s, 30) {
			t.Errorf("ClipsFrom returns whole clips: got %+v, want %+v", clips, getClip(t, s, 30))
		}

		movies, _ := listMovies(t, s, catalog.MovieFilter{Paging: firstPage})
		for start := range movies {
			got, err := ks.MoviesFrom(context.Background(), movies[start], 1, 3, catalog.AllFields(true))
			noErr(t, err, "MoviesFrom")
			want := movies[min(len(movies), start+1):]
			want = want[:min(len(want), 3)]
			ids := make([]int64, len(got))
			for i, m := range got {
				ids[i] = m.ID
			}
			if !slices.Equal(ids, want) {
				t.Errorf("movies from %d, skip 1: got %v, want %v", movies[start], ids, want)
			}
		}
		if got, _ := ks.MoviesFrom(context.Background(), movies[0], 0, 1, catalog.AllFields(false)); len(got) != 1 || got[0].Synopsis == "" {
			t.Errorf("MoviesFrom returns whole movies: got %+v", got)
		}
		// A page of short fields only: those fields equal the stored ones.
		short, err := catalog.ParseFields("id,title,slug,year,poster1_url,poster2_url,id_code,release", false)
		noErr(t, err, "ParseFields")
		got, err := ks.MoviesFrom(context.Background(), movies[0], 0, 2, short)
		noErr(t, err, "MoviesFrom")
		for _, m := range got {
			want := getMovie(t, s, m.ID)
			if string(m.AppendJSON(nil, short, false)) != string(want.AppendJSON(nil, short, false)) ||
				string(m.AppendJSON(nil, short, true)) != string(want.AppendJSON(nil, short, true)) {
				t.Errorf("short fields of movie %d: got %+v, want %+v", m.ID, m, want)
			}
		}
	})
}

func getClip(tb testing.TB, s catalog.Store, id int64) catalog.Clip {
	tb.Helper()
	c, err := s.GetClip(context.Background(), id)
	noErr(tb, err, "GetClip")
	return c
}
