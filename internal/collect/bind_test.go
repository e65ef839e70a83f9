package collect_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/testdb"
)

// typed is a record of a typed source: vod_id, type_id, type_name.
type typed struct {
	id     int
	typeID int
	tname  string
}

// typedSource is a MacCMS source whose records carry types; its list
// can change between runs, and it counts the requests it answers.
type typedSource struct {
	mu       sync.Mutex
	records  []typed
	failPage int // a page answered 404: the run stops there
	perPage  int
	requests atomic.Int64
	srv      *httptest.Server
}

func newTypedSource(t *testing.T, records ...typed) *typedSource {
	s := &typedSource{records: records, perPage: 100}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		page := 1
		fmt.Sscan(r.URL.Query().Get("pg"), &page)
		if page == s.failPage {
			http.NotFound(w, r)
			return
		}
		count := max(1, (len(s.records)+s.perPage-1)/s.perPage)
		var b strings.Builder
		fmt.Fprintf(&b, `{"code":1,"page":%d,"pagecount":%d,"total":%d,"list":[`, page, count, len(s.records))
		from := (page - 1) * s.perPage
		for i, rec := range s.records[min(from, len(s.records)):min(from+s.perPage, len(s.records))] {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"vod_id":%d,"vod_name":"Title %d","vod_year":"2020","type_id":%d,"type_name":%q,"vod_play_from":"iframe","vod_play_url":"Full$https://play.example.com/%d"}`,
				rec.id, rec.id, rec.typeID, rec.tname, rec.id)
		}
		b.WriteString("]}")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, b.String())
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *typedSource) set(records ...typed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records = records
}

// collectTyped runs a collection of src as the source "typed".
func collectTyped(t *testing.T, st catalog.Store, src *typedSource, opts collect.Options) catalog.SourceRun {
	t.Helper()
	opts.Source, opts.URL, opts.Limits, opts.Fetch = "typed", src.srv.URL+"/api.php/provide/vod/", shortLimits, local
	run, sum, err := collect.Run(context.Background(), st, opts)
	if err != nil || sum.Rejected > 0 {
		t.Fatalf("run: %+v, rejects %+v, %v", run, sum.Rejects, err)
	}
	return run
}

// shown is the catalog's movies by name, each with its categories.
func shown(t *testing.T, st catalog.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := st.ExportMovies(context.Background(), func(m *catalog.Movie) error {
		out[m.Name] = catalog.MovieList(m, "categories").Joined
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func typeOf(t *testing.T, st catalog.Store, id int64) catalog.SourceType {
	t.Helper()
	types, err := st.SourceTypes(context.Background(), "typed")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(types, func(ty catalog.SourceType) bool { return ty.ID == id })
	if i < 0 {
		t.Fatalf("type %d not stored: %+v", id, types)
	}
	return types[i]
}

// Types are auto-bound in order (a local category of the same folded
// name, the operator's rules, the shipped synonyms); a record of a type
// nothing binds is kept, not shown, counted unbound, and published when
// its type is bound, without fetching it again.
func TestBindingsUnboundKeptThenPublished(t *testing.T) {
	ctx := context.Background()
	st := testdb.Open(t)
	src := newTypedSource(t,
		typed{1, 1, "電影片"}, // the synonym table: 电影 (folded: traditional to simplified)
		typed{2, 2, "Horror"}, typed{3, 2, "Horror"},
		typed{4, 3, "Kids"}, // the operator's rule
	)
	run := collectTyped(t, st, src, collect.Options{Synonyms: []catalog.Synonym{{Local: "Children", Remote: "kids"}}})
	if run.Written != 2 || run.Unbound != 2 {
		t.Fatalf("first run: %+v, want 2 written, 2 unbound", run)
	}
	want := map[string]string{"Title 1": "电影", "Title 4": "Children"}
	if got := shown(t, st); !mapsEqual(got, want) {
		t.Fatalf("shown: %v, want %v (the Horror records kept, not shown)", got, want)
	}
	if ty := typeOf(t, st, 2); ty.Bound() || ty.Kept != 2 {
		t.Fatalf("type 2: %+v, want unbound with 2 kept", ty)
	}
	asked := src.requests.Load()
	res, err := collect.Bind(ctx, st, "typed", 2, "恐怖", false, true)
	if err != nil || res.Published != 2 || res.Moved != 0 {
		t.Fatalf("bind: %+v, %v; want 2 published", res, err)
	}
	if n := src.requests.Load(); n != asked {
		t.Errorf("bind asked the source %d times, want 0", n-asked)
	}
	want["Title 2"], want["Title 3"] = "恐怖", "恐怖"
	if got := shown(t, st); !mapsEqual(got, want) {
		t.Fatalf("after bind: %v, want %v", got, want)
	}
	if ty := typeOf(t, st, 2); ty.Kept != 0 || !ty.ByHand || ty.Category != "恐怖" {
		t.Errorf("type 2 after bind: %+v", ty)
	}
	// The next run finds every record as it was published.
	if run := collectTyped(t, st, src, collect.Options{}); run.Written != 0 || run.Unchanged != 4 || run.Unbound != 0 {
		t.Errorf("second run: %+v, want 4 unchanged", run)
	}
	// A new type named as a local category (folded) binds to it; one
	// that nothing binds is kept until a rule comes, and the next run
	// binds it then and publishes what it kept.
	src.set(typed{5, 4, "Horror"}, typed{6, 5, "children"})
	if run := collectTyped(t, st, src, collect.Options{}); run.Written != 1 || run.Unbound != 1 {
		t.Errorf("third run: %+v, want 1 written (children: the local Children), 1 unbound (Horror)", run)
	}
	rules := []catalog.Synonym{{Local: "恐怖", Remote: "Horror"}}
	if run := collectTyped(t, st, src, collect.Options{Synonyms: rules}); run.Unbound != 0 || run.Written != 0 {
		t.Errorf("fourth run: %+v, want nothing unbound and nothing to write (published from the kept record)", run)
	}
	want["Title 5"], want["Title 6"] = "恐怖", "Children"
	if got := shown(t, st); !mapsEqual(got, want) {
		t.Errorf("after the rule: %v, want %v", got, want)
	}
}

// A binding made by hand is never changed by auto-binding, and
// rebinding a type by hand moves its movies to the new category.
func TestBindingsByHandAndRebind(t *testing.T) {
	ctx := context.Background()
	st := testdb.Open(t)
	src := newTypedSource(t, typed{1, 1, "Movies"}, typed{2, 1, "Movies"}, typed{3, 2, "Series"})
	if run := collectTyped(t, st, src, collect.Options{}); run.Written != 3 {
		t.Fatalf("first run: %+v", run)
	}
	if got := shown(t, st); got["Title 1"] != "电影" || got["Title 3"] != "电视剧" {
		t.Fatalf("auto-bound by the synonym table: %v", got)
	}
	res, err := collect.Bind(ctx, st, "typed", 1, "Cinema", false, true)
	if err != nil || res.Moved != 2 {
		t.Fatalf("rebind: %+v, %v; want 2 moved", res, err)
	}
	if got := shown(t, st); got["Title 1"] != "Cinema" || got["Title 2"] != "Cinema" || got["Title 3"] != "电视剧" {
		t.Fatalf("after rebind: %v", got)
	}
	// Auto-binding (a run with a rule naming the type, a Bind not by
	// hand) leaves it.
	collectTyped(t, st, src, collect.Options{Synonyms: []catalog.Synonym{{Local: "Other", Remote: "Movies"}}})
	if _, err := collect.Bind(ctx, st, "typed", 1, "Auto", false, false); err != nil {
		t.Fatal(err)
	}
	// Nor does the store, when a type is stored again not by hand.
	if err := st.PutSourceTypes(ctx, "typed", []catalog.SourceType{{ID: 1, Name: "Movies", Category: "Auto"}}); err != nil {
		t.Fatal(err)
	}
	if ty := typeOf(t, st, 1); ty.Category != "Cinema" || !ty.ByHand {
		t.Errorf("hand binding: %+v, want Cinema by hand", ty)
	}
	if got := shown(t, st); got["Title 1"] != "Cinema" {
		t.Errorf("after runs: %v", got)
	}
	// Skip: later records of the type are not collected.
	if _, err := collect.Bind(ctx, st, "typed", 2, "skip", true, true); err != nil {
		t.Fatal(err)
	}
	src.set(typed{1, 1, "Movies"}, typed{2, 1, "Movies"}, typed{3, 2, "Series"}, typed{4, 2, "Series"})
	collectTyped(t, st, src, collect.Options{})
	if _, ok := shown(t, st)["Title 4"]; ok {
		t.Errorf("a record of a skipped type was collected")
	}
	// A type bound ahead of its first record.
	if _, err := collect.Bind(ctx, st, "typed", 9, "Ahead", false, true); err != nil {
		t.Fatal(err)
	}
	src.set(typed{9, 9, "Novel"})
	collectTyped(t, st, src, collect.Options{})
	if got := shown(t, st)["Title 9"]; got != "Ahead" {
		t.Errorf("bound ahead: got category %q, want Ahead", got)
	}
	if ty := typeOf(t, st, 9); ty.Name != "Novel" || ty.Category != "Ahead" {
		t.Errorf("bound ahead: %+v, want the name stored with the binding kept", ty)
	}
}

// A record the source no longer lists: only a full run that read every
// page concludes it is gone, and then keep leaves the movie, hide takes
// it out and keeps it with the source (a record that comes back is
// shown again), delete deletes it.
func TestGoneAtTheSource(t *testing.T) {
	for _, gone := range []catalog.Gone{catalog.GoneKeep, catalog.GoneHide, catalog.GoneDelete} {
		t.Run(string(gone), func(t *testing.T) {
			ctx := context.Background()
			st := testdb.Open(t)
			src := newTypedSource(t, typed{1, 1, "Movies"}, typed{2, 1, "Movies"}, typed{3, 1, "Movies"})
			opts := collect.Options{Gone: gone}
			collectTyped(t, st, src, opts)
			src.set(typed{1, 1, "Movies"}, typed{3, 1, "Movies"})

			// An incremental run never concludes.
			inc := opts
			inc.Hours = 24
			collectTyped(t, st, src, inc)
			if _, ok := shown(t, st)["Title 2"]; !ok {
				t.Fatalf("an incremental run took Title 2 out")
			}
			// A run limited by --pages, and a full run that stopped early,
			// conclude nothing.
			limited := opts
			limited.Pages = 1
			collectTyped(t, st, src, limited)
			src.perPage, src.failPage = 1, 2
			if _, _, err := collect.Run(ctx, st, collect.Options{Source: "typed", URL: src.srv.URL + "/api.php/provide/vod/",
				Limits: shortLimits, Fetch: local, Gone: gone}); err == nil {
				t.Fatal("the failing run ended without an error")
			}
			if _, ok := shown(t, st)["Title 2"]; !ok {
				t.Fatalf("a run that stopped early took Title 2 out")
			}

			src.perPage, src.failPage = 100, 0
			collectTyped(t, st, src, opts)
			_, isShown := shown(t, st)["Title 2"]
			kept, err := st.KeptVodIDs(ctx, "typed")
			if err != nil {
				t.Fatal(err)
			}
			hidden, isKept := kept[2]
			switch gone {
			case catalog.GoneKeep:
				if !isShown || isKept {
					t.Errorf("keep: shown %v, kept %v; want shown", isShown, isKept)
				}
			case catalog.GoneHide:
				if isShown || !isKept || !hidden {
					t.Errorf("hide: shown %v, kept %v (hidden %v); want kept hidden, not shown", isShown, isKept, hidden)
				}
			case catalog.GoneDelete:
				if isShown || isKept {
					t.Errorf("delete: shown %v, kept %v; want neither", isShown, isKept)
				}
			}
			if n := len(shown(t, st)); n != 2 && gone != catalog.GoneKeep {
				t.Errorf("%s: %d movies shown, want 2", gone, n)
			}
			// It comes back at the source: shown again, nothing kept.
			src.set(typed{1, 1, "Movies"}, typed{2, 1, "Movies"}, typed{3, 1, "Movies"})
			collectTyped(t, st, src, opts)
			kept, err = st.KeptVodIDs(ctx, "typed")
			if _, ok := shown(t, st)["Title 2"]; !ok || len(kept) != 0 || err != nil {
				t.Errorf("back at the source: shown %v, kept %v (%v); want shown, nothing kept", ok, kept, err)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
