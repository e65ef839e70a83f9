package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// newMovie builds a normalised movie the way the importer does.
func newMovie(tb testing.TB, name, idCode string) catalog.Movie {
	tb.Helper()
	m := catalog.Movie{
		Name:       name,
		Year:       "2019",
		Poster1URL: "https://img.example.com/1.jpg",
		Poster2URL: "https://img.example.com/2.jpg",
		Synopsis:   "A story.\nIn two lines.",
		IDCode:     idCode,
		Release:    "2019-05-01",
		Score:      "8.7",
		DoubanID:   "1292052",
		Episodes: []catalog.Server{
			{Name: "Main", Episodes: []catalog.Episode{
				{Name: "Ep 1", LinkEmbed: "https://player.example.com/embed/1", LinkM3U8: "https://cdn.example.com/1.m3u8"},
				{Name: "ตอนที่ 2 #$", LinkM3U8: "https://cdn.example.com/2.m3u8?a=$b#c"}}},
			{Name: "Backup", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://backup.example.com/e/1"}}}},
	}
	m.Lists[0] = catalog.NewList([]string{"Drama", "Action, Thriller", `Quote "q"`})
	m.Lists[1] = catalog.NewList([]string{"Actor Ä", "นักแสดง"})
	m.Lists[2] = catalog.NewList(nil)
	m.Lists[3] = catalog.NewList([]string{"Studio"})
	m.Lists[4] = catalog.NewList([]string{"genre"})
	m.Lists[5] = catalog.NewList([]string{"JP", "TH"})
	noErr(tb, m.Normalize(), "Normalize")
	return m
}

// sameMovie reports whether a and b hold the same values, episodes
// included.
func sameMovie(a, b catalog.Movie) bool { return reflect.DeepEqual(a, b) }

func upsert(tb testing.TB, s catalog.Store, movies ...*catalog.Movie) {
	tb.Helper()
	batch := make([]catalog.Movie, len(movies))
	for i, m := range movies {
		batch[i] = *m
	}
	noErr(tb, s.UpsertMovies(context.Background(), batch), "UpsertMovies")
	for i, m := range movies {
		*m = batch[i]
	}
}

func getMovie(tb testing.TB, s catalog.Store, id int64) catalog.Movie {
	tb.Helper()
	m, err := s.GetMovie(context.Background(), id)
	noErr(tb, err, fmt.Sprintf("GetMovie(%d)", id))
	return m
}

func countMovies(tb testing.TB, s catalog.Store) int64 {
	tb.Helper()
	n, err := s.CountMovies(context.Background())
	noErr(tb, err, "CountMovies")
	return n
}

func runMovies(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()

	t.Run("InsertRoundTrip", func(t *testing.T) {
		s := open(t)
		before := nowSecond()
		a, b := newMovie(t, "First Movie", "ABC-001"), newMovie(t, "ภาพยนตร์ที่สอง", "")
		b.Lists = [catalog.NumLists]catalog.List{} // no list values at all
		for i := range b.Lists {
			b.Lists[i] = catalog.NewList(nil)
		}
		upsert(t, s, &a, &b)
		if a.ID <= 0 || b.ID <= a.ID {
			t.Fatalf("ids written back: got %d, %d, want positive and increasing", a.ID, b.ID)
		}
		for _, want := range []catalog.Movie{a, b} {
			wantTimeBetween(t, "UpdatedAt written back", want.UpdatedAt, before, nowSecond())
			if got := getMovie(t, s, want.ID); !sameMovie(got, want) {
				t.Fatalf("GetMovie round trip:\n got %+v\nwant %+v", got, want)
			}
		}
		if b.Slug == "" {
			t.Fatalf("slug of %q: got empty, want one derived by Normalize", b.Name)
		}
		if n := countMovies(t, s); n != 2 {
			t.Fatalf("CountMovies: got %d, want 2", n)
		}
		_, err := s.GetMovie(ctx, b.ID+100)
		wantCode(t, err, catalog.ENOTFOUND)
		noErr(t, s.UpsertMovies(ctx, nil), "UpsertMovies(nil)")
	})

	t.Run("LongSeries", func(t *testing.T) {
		// 2,000 episodes on one server, and a second server of one:
		// written and read back whole, in order.
		s := open(t)
		m := newMovie(t, "Long series", "LONG-1")
		main := catalog.Server{Name: "Main"}
		for i := 1; i <= 2000; i++ {
			main.Episodes = append(main.Episodes, catalog.Episode{Name: fmt.Sprintf("Ep %d", i),
				LinkEmbed: fmt.Sprintf("https://p.example/e/%d", i), LinkM3U8: fmt.Sprintf("https://cdn.example/%d/index.m3u8", i)})
		}
		m.Episodes = []catalog.Server{main, {Name: "Other", Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: "https://o.example/1.m3u8"}}}}
		noErr(t, m.Normalize(), "Normalize")
		upsert(t, s, &m)
		if got := getMovie(t, s, m.ID); !sameMovie(got, m) {
			t.Fatalf("2,000 episodes read back differ: %d servers, %d episodes", len(got.Episodes), len(got.Episodes[0].Episodes))
		}
		m.Episodes = nil
		upsert(t, s, &m)
		if got := getMovie(t, s, m.ID); got.Episodes != nil {
			t.Fatalf("episodes removed: read back %d servers", len(got.Episodes))
		}
	})
	t.Run("UpsertKeys", func(t *testing.T) {
		tests := []struct {
			name  string
			first func(t *testing.T) catalog.Movie
			again func(t *testing.T, first catalog.Movie) catalog.Movie
		}{
			{
				"by id",
				func(t *testing.T) catalog.Movie { m := newMovie(t, "Keyed By ID", "ID-1"); m.ID = 500; return m },
				func(t *testing.T, first catalog.Movie) catalog.Movie {
					m := newMovie(t, "Renamed By ID", "ID-2") // other id_code: id wins
					m.ID = first.ID
					return m
				},
			},
			{
				"by id_code",
				func(t *testing.T) catalog.Movie { return newMovie(t, "Keyed By Code", "CODE-1") },
				func(t *testing.T, first catalog.Movie) catalog.Movie {
					return newMovie(t, "Renamed By Code", "CODE-1")
				},
			},
			{
				"by slug",
				func(t *testing.T) catalog.Movie { return newMovie(t, "Keyed By Slug", "") },
				func(t *testing.T, first catalog.Movie) catalog.Movie {
					m := newMovie(t, "Keyed By Slug", "")
					m.Year = "2024"
					return m
				},
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := open(t)
				other := newMovie(t, "Unrelated", "OTHER-1")
				upsert(t, s, &other)
				first := tt.first(t)
				upsert(t, s, &first)
				if first.ID <= 0 {
					t.Fatalf("first upsert: got id %d", first.ID)
				}
				again := tt.again(t, first)
				upsert(t, s, &again)
				if again.ID != first.ID {
					t.Fatalf("second upsert: got id %d, want the same movie %d", again.ID, first.ID)
				}
				if n := countMovies(t, s); n != 2 {
					t.Fatalf("CountMovies after second upsert: got %d, want 2 (no duplicate)", n)
				}
				if got := getMovie(t, s, first.ID); !sameMovie(got, again) {
					t.Fatalf("after second upsert:\n got %+v\nwant %+v", got, again)
				}
				if got := getMovie(t, s, other.ID); !sameMovie(got, other) {
					t.Fatalf("unrelated movie changed:\n got %+v\nwant %+v", got, other)
				}
			})
		}
	})

	t.Run("ExplicitIDThenAssigned", func(t *testing.T) {
		s := open(t)
		m := newMovie(t, "Explicit", "")
		m.ID = 1000
		upsert(t, s, &m)
		n := newMovie(t, "Assigned", "")
		upsert(t, s, &n)
		if n.ID <= 1000 {
			t.Fatalf("id after explicit 1000: got %d, want > 1000", n.ID)
		}
	})

	t.Run("UpdatedAt", func(t *testing.T) {
		s := open(t)
		old := time.Date(2021, 6, 7, 8, 9, 10, 0, time.UTC)
		m := newMovie(t, "Dated", "DATED-1")
		m.UpdatedAt = old // an import may carry its own time
		upsert(t, s, &m)
		if got := getMovie(t, s, m.ID).UpdatedAt; !got.Equal(old) {
			t.Fatalf("UpdatedAt given on insert: got %v, want %v", got, old)
		}

		same := newMovie(t, "Dated", "DATED-1")
		upsert(t, s, &same)
		if got := getMovie(t, s, m.ID).UpdatedAt; !got.Equal(old) {
			t.Fatalf("UpdatedAt after an unchanged upsert: got %v, want %v kept", got, old)
		}
		if !same.UpdatedAt.Equal(old) {
			t.Fatalf("UpdatedAt written back for an unchanged upsert: got %v, want %v", same.UpdatedAt, old)
		}

		before := nowSecond()
		changed := newMovie(t, "Dated", "DATED-1")
		changed.Synopsis = "A new synopsis."
		upsert(t, s, &changed)
		got := getMovie(t, s, m.ID).UpdatedAt
		wantTimeBetween(t, "UpdatedAt after a change", got, before, nowSecond())
		if !changed.UpdatedAt.Equal(got) {
			t.Fatalf("UpdatedAt written back: got %v, want %v", changed.UpdatedAt, got)
		}
	})

	t.Run("Scores", func(t *testing.T) {
		// The score and the Douban id (contract 12) are stored as they
		// are, "" included, and a change of either alone is a change:
		// stored, and the movie's updated_at moves.
		s := open(t)
		old := time.Date(2021, 6, 7, 8, 9, 10, 0, time.UTC)
		m := newMovie(t, "Scored", "SCORE-1")
		m.Score, m.DoubanID, m.UpdatedAt = "", "", old
		upsert(t, s, &m)
		if got := getMovie(t, s, m.ID); got.Score != "" || got.DoubanID != "" {
			t.Fatalf("no score: got %q, %q, want empty", got.Score, got.DoubanID)
		}
		for _, change := range []struct{ score, doubanID string }{{"10.0", ""}, {"10.0", "30166972"}, {"0.0", "30166972"}} {
			before := nowSecond()
			next := newMovie(t, "Scored", "SCORE-1")
			next.Score, next.DoubanID = change.score, change.doubanID
			upsert(t, s, &next)
			got := getMovie(t, s, m.ID)
			if got.Score != change.score || got.DoubanID != change.doubanID {
				t.Fatalf("after upserting %+v: got %q, %q", change, got.Score, got.DoubanID)
			}
			wantTimeBetween(t, "UpdatedAt after a score change", got.UpdatedAt, before, nowSecond())
		}
	})

	t.Run("List", func(t *testing.T) {
		s := open(t)
		longAgo := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		var all []int64 // newest first
		names := []string{"Alpha Strike", "ภาพยนตร์ไทย", "東京物語", "Beta Café", "alpha omega", "Gamma"}
		for i, name := range names {
			m := newMovie(t, name, fmt.Sprintf("L-%d", i))
			if i%2 == 0 {
				m.UpdatedAt = longAgo
			}
			upsert(t, s, &m)
			all = append([]int64{m.ID}, all...)
		}
		// all[0] Gamma, all[1] alpha omega (old), all[2] Beta Café,
		// all[3] 東京物語 (old), all[4] ภาพยนตร์ไทย, all[5] Alpha Strike (old).
		recent := time.Now().Add(-time.Hour)
		tests := []struct {
			name  string
			f     catalog.MovieFilter
			want  []int64
			total int64
		}{
			{"all", catalog.MovieFilter{}, all, 6},
			{"page 1", catalog.MovieFilter{Paging: page(1, 4)}, all[0:4], 6},
			{"page 2", catalog.MovieFilter{Paging: page(2, 4)}, all[4:6], 6},
			{"past the end", catalog.MovieFilter{Paging: page(3, 4)}, nil, 6},
			{"ids", catalog.MovieFilter{IDs: []int64{all[5], all[0], 999999}}, []int64{all[0], all[5]}, 2},
			{"ids paged", catalog.MovieFilter{IDs: []int64{all[5], all[3], all[0]}, Paging: page(2, 2)}, []int64{all[5]}, 3},
			{"changed since", catalog.MovieFilter{ChangedSince: recent}, []int64{all[0], all[2], all[4]}, 3},
			{"changed since the future", catalog.MovieFilter{ChangedSince: time.Now().Add(time.Hour)}, nil, 0},
			{"changed since long ago", catalog.MovieFilter{ChangedSince: longAgo}, all, 6},
			{"search", catalog.MovieFilter{Terms: catalog.SearchTerms("ALPHA")}, []int64{all[1], all[5]}, 2},
			{"search two words", catalog.MovieFilter{Terms: catalog.SearchTerms("omega alpha")}, []int64{all[1]}, 1},
			{"search Thai", catalog.MovieFilter{Terms: catalog.SearchTerms("ไทย")}, []int64{all[4]}, 1},
			{"search CJK", catalog.MovieFilter{Terms: catalog.SearchTerms("東京")}, []int64{all[3]}, 1},
			{"search accent", catalog.MovieFilter{Terms: catalog.SearchTerms("CAFÉ")}, []int64{all[2]}, 1},
			{"search short", catalog.MovieFilter{Terms: catalog.SearchTerms("ga")}, []int64{all[0], all[1]}, 2},
			{"search literal percent", catalog.MovieFilter{Terms: catalog.SearchTerms("%a")}, nil, 0},
			{"search and ids", catalog.MovieFilter{Terms: catalog.SearchTerms("alpha"), IDs: []int64{all[5]}}, []int64{all[5]}, 1},
			{"search and changed since", catalog.MovieFilter{Terms: catalog.SearchTerms("a"), ChangedSince: recent}, []int64{all[0], all[2]}, 2},
			{"search code", catalog.MovieFilter{Terms: catalog.SearchTerms("l-3")}, []int64{all[2]}, 1},
			{"search code full-width", catalog.MovieFilter{Terms: catalog.SearchTerms("Ｌ－３")}, []int64{all[2]}, 1},
			{"search code and title", catalog.MovieFilter{Terms: catalog.SearchTerms("beta L-3")}, []int64{all[2]}, 1},
			{"search code prefix", catalog.MovieFilter{Terms: catalog.SearchTerms("l-")}, all, 6},
			{"search simplified", catalog.MovieFilter{Terms: catalog.SearchTerms("东京")}, []int64{all[3]}, 1},
			{"search pinyin", catalog.MovieFilter{Terms: catalog.SearchTerms("dongjing")}, []int64{all[3]}, 1},
			{"search pinyin initials", catalog.MovieFilter{Terms: catalog.SearchTerms("djwy")}, []int64{all[3]}, 1},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, total := listMovies(t, s, tt.f)
				wantIDs(t, "movie list", got, tt.want)
				if total != tt.total {
					t.Fatalf("total: got %d, want %d", total, tt.total)
				}
			})
		}
	})

	t.Run("VodsByIDReturnsWholeMovies", func(t *testing.T) {
		s := open(t)
		m := newMovie(t, "Whole", "W-1")
		upsert(t, s, &m)
		vods, err := s.VodsByID(ctx, []int64{m.ID})
		noErr(t, err, "VodsByID")
		if len(vods) != 1 || !sameMovie(vods[0].Movie, m) {
			t.Fatalf("VodsByID:\n got %+v\nwant [%+v]", vods, m)
		}
	})

	t.Run("MoviesByID", func(t *testing.T) {
		s := open(t)
		a, b := newMovie(t, "Keyed A", "K-1"), newMovie(t, "Keyed B", "K-2")
		upsert(t, s, &a)
		upsert(t, s, &b)
		// Every field: the whole movie but its time of change, newest first,
		// a missing id left out.
		got, err := s.MoviesByID(ctx, []int64{a.ID, b.ID + 1000, b.ID}, catalog.AllFields(true))
		noErr(t, err, "MoviesByID")
		wantB, wantA := b, a
		wantB.UpdatedAt, wantA.UpdatedAt = time.Time{}, time.Time{}
		if len(got) != 2 || !sameMovie(got[0], wantB) || !sameMovie(got[1], wantA) {
			t.Fatalf("MoviesByID, every field:\n got %+v\nwant [%+v %+v]", got, wantB, wantA)
		}
		// id and title: the other columns are not read.
		got, err = s.MoviesByID(ctx, []int64{a.ID}, 1<<catalog.FieldID|1<<catalog.FieldTitle)
		noErr(t, err, "MoviesByID id,title")
		if want := (catalog.Movie{ID: a.ID, Name: a.Name}); len(got) != 1 || !sameMovie(got[0], want) {
			t.Fatalf("MoviesByID id,title:\n got %+v\nwant [%+v]", got, want)
		}
		// A list field: both of its stored forms, nothing else.
		got, err = s.MoviesByID(ctx, []int64{a.ID}, 1<<catalog.FieldActor)
		noErr(t, err, "MoviesByID actor")
		want := catalog.Movie{ID: a.ID}
		want.Lists[1] = a.Lists[1]
		if len(got) != 1 || !sameMovie(got[0], want) {
			t.Fatalf("MoviesByID actor:\n got %+v\nwant [%+v]", got, want)
		}
		if got, err := s.MoviesByID(ctx, nil, catalog.AllFields(false)); err != nil || len(got) != 0 || got == nil {
			t.Fatalf("MoviesByID of no ids: got %#v, %v, want an empty list", got, err)
		}
	})

	// A page's ids may fill their range (a page of a whole list, which an
	// engine may read as one range of the key) or be spread (a search):
	// either way exactly the rows asked for, highest first.
	t.Run("keyed reads whatever the spread", func(t *testing.T) {
		s := open(t)
		movies := make([]catalog.Movie, 30)
		clips := make([]catalog.Clip, 30)
		for i := range movies {
			movies[i] = newMovie(t, "Spread", "S-"+strconv.Itoa(i))
			upsert(t, s, &movies[i])
			clips[i] = createClip(t, s, "Spread", "JAV")
		}
		// pick is every step-th record from the newest, n of them, as
		// the index gives a page; pick(n, 0) repeats the newest.
		pick := func(n, step int) (movieIDs, clipIDs []int64) {
			for i := range n {
				movieIDs = append(movieIDs, movies[len(movies)-1-step*i].ID)
				clipIDs = append(clipIDs, clips[len(clips)-1-step*i].ID)
			}
			return movieIDs, clipIDs
		}
		read := func(askedMovies, askedClips, wantMovies, wantClips []int64) {
			t.Helper()
			ms, err := s.MoviesByID(ctx, askedMovies, 1<<catalog.FieldID|1<<catalog.FieldTitle)
			noErr(t, err, "MoviesByID")
			cs, err := s.ClipsByID(ctx, askedClips)
			noErr(t, err, "ClipsByID")
			var gotMovies, gotClips []int64
			for _, m := range ms {
				gotMovies = append(gotMovies, m.ID)
			}
			for _, c := range cs {
				gotClips = append(gotClips, c.ID)
			}
			if !slices.Equal(gotMovies, wantMovies) || !slices.Equal(gotClips, wantClips) {
				t.Fatalf("keyed reads of movies %v, clips %v:\n got %v, %v\nwant %v, %v",
					askedMovies, askedClips, gotMovies, gotClips, wantMovies, wantClips)
			}
		}
		for _, step := range []int{1, 2, 3} {
			for _, n := range []int{1, 2, 9, 10} {
				m, c := pick(n, step)
				read(m, c, m, c)
			}
		}
		m, c := pick(2, 1) // a repeated id, in range
		read([]int64{m[0], m[1], m[1]}, []int64{c[0], c[1], c[1]}, m, c)
		m, c = pick(2, 20) // a repeated id, spread
		read([]int64{m[0], m[1], m[0]}, []int64{c[0], c[1], c[0]}, m, c)
		m, c = pick(1, 1) // ids no row has, beside one that has: spread, then in range
		read([]int64{m[0] + 1000, m[0], 0}, []int64{c[0] + 1000, c[0], 0}, m, c)
		read([]int64{m[0] + 1, m[0]}, []int64{c[0] + 1, c[0]}, m, c)
	})

	t.Run("SearchFollowsRename", func(t *testing.T) {
		s := open(t)
		m := newMovie(t, "Before Rename", "R-1")
		upsert(t, s, &m)
		m2 := newMovie(t, "After Rename", "R-1")
		upsert(t, s, &m2)
		if got, _ := listMovies(t, s, catalog.MovieFilter{Terms: catalog.SearchTerms("before")}); len(got) != 0 {
			t.Fatalf("search for the old name: got %v, want none", got)
		}
		if got, _ := listMovies(t, s, catalog.MovieFilter{Terms: catalog.SearchTerms("after")}); len(got) != 1 {
			t.Fatalf("search for the new name: got %v, want [%d]", got, m.ID)
		}
	})

	t.Run("EachMovie", func(t *testing.T) {
		s := open(t)
		var want []catalog.Movie // newest first
		for i := range 7 {
			m := newMovie(t, fmt.Sprintf("Each %d", i), fmt.Sprintf("E-%d", i))
			upsert(t, s, &m)
			want = append([]catalog.Movie{m}, want...)
		}
		var got []catalog.Movie
		noErr(t, s.EachMovie(ctx, func(m *catalog.Movie) error {
			got = append(got, *m)
			return nil
		}), "EachMovie")
		if len(got) != len(want) {
			t.Fatalf("EachMovie: got %d movies, want %d", len(got), len(want))
		}
		for i := range want {
			if !sameMovie(got[i], want[i]) {
				t.Fatalf("EachMovie row %d:\n got %+v\nwant %+v", i, got[i], want[i])
			}
		}

		stop := errors.New("stop")
		calls := 0
		err := s.EachMovie(ctx, func(m *catalog.Movie) error {
			calls++
			if calls == 3 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || calls != 3 {
			t.Fatalf("EachMovie stopping: got %v after %d calls, want fn's error after 3", err, calls)
		}

		empty := open(t)
		noErr(t, empty.EachMovie(ctx, func(m *catalog.Movie) error {
			t.Fatalf("EachMovie on an empty store called fn with %+v", *m)
			return nil
		}), "EachMovie on an empty store")
		if n := countMovies(t, empty); n != 0 {
			t.Fatalf("CountMovies on an empty store: got %d, want 0", n)
		}
	})
}
