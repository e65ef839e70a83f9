package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// vodMovie is a normalised movie with the given categories, year and
// change time.
func vodMovie(tb testing.TB, name string, categories []string, year string, changed time.Time) catalog.Movie {
	tb.Helper()
	m := catalog.Movie{Name: name, Year: year, UpdatedAt: changed}
	for i := range m.Lists {
		m.Lists[i] = catalog.NewList(nil)
	}
	m.Lists[0] = catalog.NewList(categories)
	noErr(tb, m.Normalize(), "Normalize")
	return m
}

func vodTypes(tb testing.TB, s catalog.Store) []catalog.VodType {
	tb.Helper()
	types, err := s.VodTypes(context.Background())
	noErr(tb, err, "VodTypes")
	if types == nil {
		tb.Fatalf("VodTypes: got nil, want an empty slice")
	}
	return types
}

// typeID finds the id of a type name, failing when there is none.
func typeID(tb testing.TB, types []catalog.VodType, name string) int64 {
	tb.Helper()
	for _, t := range types {
		if t.Name == name {
			return t.ID
		}
	}
	tb.Fatalf("no type %q in %v", name, types)
	return 0
}

// runVods holds the stores to contract 6: stable type ids kept by every
// write, the first category as a movie's type, last-change order and
// the filters of the resource API.
func runVods(t *testing.T, open func(t *testing.T) catalog.Store) {
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

	t.Run("Types", func(t *testing.T) {
		s := open(t)
		if got := vodTypes(t, s); len(got) != 0 {
			t.Fatalf("types of an empty store: got %v, want none", got)
		}
		a := vodMovie(t, "A", []string{"Drama", "Thai"}, "2019", base)
		b := vodMovie(t, "B", []string{"Comedy", "Drama"}, "2019", base)
		c := vodMovie(t, "C", nil, "2019", base)
		upsert(t, s, &a, &b, &c)
		types := vodTypes(t, s)
		names := make([]string, len(types))
		for i, ty := range types {
			names[i] = ty.Name
			if ty.ID <= 0 || (i > 0 && ty.ID <= types[i-1].ID) {
				t.Fatalf("type ids: got %v, want positive and increasing", types)
			}
		}
		// Numbered when first seen: the batch's order, then list order.
		if want := []string{"Drama", "Thai", "Comedy"}; !slices.Equal(names, want) {
			t.Fatalf("type names by id: got %q, want %q", names, want)
		}
		drama, comedy := typeID(t, types, "Drama"), typeID(t, types, "Comedy")

		vods, _, _ := listVods(t, s, catalog.VodFilter{})
		wantType := map[int64]catalog.VodType{a.ID: {ID: drama, Name: "Drama"}, b.ID: {ID: comedy, Name: "Comedy"}, c.ID: {}}
		for _, v := range vods {
			if got := (catalog.VodType{ID: v.TypeID, Name: v.TypeName}); got != wantType[v.ID] {
				t.Errorf("type of movie %d: got %+v, want %+v (its first category)", v.ID, got, wantType[v.ID])
			}
		}

		// A changed first category changes the type; new names get new
		// ids after the old ones, which keep theirs.
		a.Lists[0] = catalog.NewList([]string{"Horror", "Drama"})
		a.UpdatedAt = base.Add(time.Hour)
		upsert(t, s, &a)
		after := vodTypes(t, s)
		if len(after) != 4 || !slices.Equal(after[:3], types) || after[3].Name != "Horror" || after[3].ID <= types[2].ID {
			t.Fatalf("types after a new category: got %v, want %v then Horror", after, types)
		}
		vods, _, _ = listVods(t, s, catalog.VodFilter{IDs: []int64{a.ID}})
		if vods[0].TypeID != after[3].ID || vods[0].TypeName != "Horror" {
			t.Fatalf("type after the change: got %d %q, want %d Horror", vods[0].TypeID, vods[0].TypeName, after[3].ID)
		}
		// Dropping every category leaves type 0, and the names stay.
		a.Lists[0] = catalog.NewList(nil)
		upsert(t, s, &a)
		vods, _, _ = listVods(t, s, catalog.VodFilter{IDs: []int64{a.ID}})
		if vods[0].TypeID != 0 || vods[0].TypeName != "" {
			t.Fatalf("type without categories: got %d %q, want 0 \"\"", vods[0].TypeID, vods[0].TypeName)
		}
		if got := vodTypes(t, s); !slices.Equal(got, after) {
			t.Fatalf("types after dropping categories: got %v, want %v (never removed)", got, after)
		}
		// A type whose movies all left is still a type, with no movies.
		_, ids, total := listVods(t, s, catalog.VodFilter{TypeID: after[3].ID})
		if len(ids) != 0 || total != 0 {
			t.Fatalf("t=Horror with no movies: got %v (total %d), want none", ids, total)
		}
	})

	t.Run("Pages", func(t *testing.T) { runVodPages(t, open, base) })
	t.Run("LiveIndexFollowsChanges", func(t *testing.T) { runVodChanges(t, open, base) })

	t.Run("OrderAndFilters", func(t *testing.T) {
		s := open(t)
		m := []catalog.Movie{
			vodMovie(t, "Alpha one", []string{"Drama"}, "1999", base.Add(3*time.Hour)),
			vodMovie(t, "Beta two", []string{"Comedy"}, "2005", base.Add(1*time.Hour)),
			vodMovie(t, "Gamma one", []string{"Drama"}, "2010", base.Add(3*time.Hour)),
			vodMovie(t, "Delta", nil, "", base.Add(2*time.Hour)),
			vodMovie(t, "Epsilon one", []string{"Drama"}, "", base),
		}
		m[1].IDCode = "XYZ-007"
		ptrs := make([]*catalog.Movie, len(m))
		for i := range m {
			ptrs[i] = &m[i]
		}
		upsert(t, s, ptrs...)
		id := func(i int) int64 { return m[i].ID }
		types := vodTypes(t, s)
		drama := typeID(t, types, "Drama")
		tests := []struct {
			name string
			f    catalog.VodFilter
			want []int64
		}{
			// Change time descending, then id descending (2 and 0 tie).
			{"all", catalog.VodFilter{}, []int64{id(2), id(0), id(3), id(1), id(4)}},
			{"page 2 of 2", catalog.VodFilter{Paging: page(2, 2)}, []int64{id(3), id(1)}},
			{"past the end", catalog.VodFilter{Paging: page(9, 2)}, nil},
			{"type", catalog.VodFilter{TypeID: drama}, []int64{id(2), id(0), id(4)}},
			{"unknown type", catalog.VodFilter{TypeID: 1 << 40}, nil},
			{"ids with unknown ones", catalog.VodFilter{IDs: []int64{id(4), 1 << 40, id(1)}}, []int64{id(1), id(4)}},
			{"changed since", catalog.VodFilter{ChangedSince: base.Add(2 * time.Hour)}, []int64{id(2), id(0), id(3)}},
			{"changed since, between seconds", catalog.VodFilter{ChangedSince: base.Add(2*time.Hour - time.Millisecond)}, []int64{id(2), id(0), id(3)}},
			{"one year", catalog.VodFilter{Years: catalog.YearRange{From: "2005", To: "2005"}}, []int64{id(1)}},
			{"year range skips non-years", catalog.VodFilter{Years: catalog.YearRange{From: "1999", To: "2010"}}, []int64{id(2), id(0), id(1)}},
			{"terms", catalog.VodFilter{Terms: catalog.SearchTerms("ONE")}, []int64{id(2), id(0), id(4)}},
			{"terms and type and time", catalog.VodFilter{Terms: catalog.SearchTerms("one"), TypeID: drama, ChangedSince: base.Add(time.Hour)}, []int64{id(2), id(0)}},
			{"short term and ids", catalog.VodFilter{Terms: catalog.SearchTerms("a"), IDs: []int64{id(0), id(1)}}, []int64{id(0), id(1)}},
			{"code", catalog.VodFilter{Terms: catalog.SearchTerms("xyz-007")}, []int64{id(1)}},
			{"code full-width", catalog.VodFilter{Terms: catalog.SearchTerms("ＸＹＺ－００７")}, []int64{id(1)}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				vods, ids, total := listVods(t, s, tt.f)
				wantIDs(t, tt.name, ids, tt.want)
				if tt.f.Paging == (catalog.Paging{}) && total != int64(len(tt.want)) {
					t.Errorf("total: got %d, want %d", total, len(tt.want))
				}
				for _, v := range vods {
					if v.UpdatedAt.Location() != time.UTC {
						t.Errorf("movie %d: UpdatedAt in %v, want UTC", v.ID, v.UpdatedAt.Location())
					}
				}
			})
		}
		if _, _, total := listVods(t, s, catalog.VodFilter{Paging: page(9, 2)}); total != 5 {
			t.Errorf("total past the end: got %d, want 5", total)
		}
		// A write moves a movie to the front; an unchanged rewrite does not.
		before := m[4].UpdatedAt
		m[4].UpdatedAt = time.Time{}
		upsert(t, s, &m[4])
		if !m[4].UpdatedAt.Equal(before) {
			t.Fatalf("unchanged rewrite: UpdatedAt got %v, want %v kept", m[4].UpdatedAt, before)
		}
		m[4].Synopsis = "changed"
		m[4].UpdatedAt = time.Time{}
		upsert(t, s, &m[4])
		_, ids, _ := listVods(t, s, catalog.VodFilter{Paging: page(1, 1)})
		wantIDs(t, "after a change", ids, []int64{id(4)})
	})
}

// runVodPages checks the pages of the change order, deep ones and
// reversed ones included, with change times that tie, against the order
// of the movies' own times (then ids).
func runVodPages(t *testing.T, open func(t *testing.T) catalog.Store, base time.Time) {
	s := open(t)
	movies := make([]catalog.Movie, 75)
	ptrs := make([]*catalog.Movie, len(movies))
	for i := range movies {
		movies[i] = vodMovie(t, "Movie "+string(rune('A'+i%26))+string(rune('a'+i/26)), []string{"C" + string(rune('0'+i%3))}, "2000",
			base.Add(time.Duration(i%10)*time.Minute))
		ptrs[i] = &movies[i]
	}
	upsert(t, s, ptrs...)
	slices.SortFunc(movies, func(a, b catalog.Movie) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return int(b.ID - a.ID)
	})
	want := make([]int64, len(movies))
	for i, m := range movies {
		want[i] = m.ID
	}
	for p := int64(1); p <= 9; p++ {
		vods, got, total := listVods(t, s, catalog.VodFilter{Paging: page(p, 10)})
		lo := min(int((p-1)*10), len(want))
		wantIDs(t, fmt.Sprintf("page %d", p), got, want[lo:min(lo+10, len(want))])
		if total != 75 {
			t.Fatalf("page %d: total %d, want 75", p, total)
		}
		for _, v := range vods {
			if v.TypeName == "" || v.TypeID == 0 {
				t.Fatalf("page %d: movie %d without its type", p, v.ID)
			}
		}
		_, got, _ = listVods(t, s, catalog.VodFilter{Ascending: true, Paging: page(p, 10)})
		rev := slices.Clone(want)
		slices.Reverse(rev)
		wantIDs(t, fmt.Sprintf("ascending page %d", p), got, rev[lo:min(lo+10, len(rev))])
	}
}

// runVodChanges checks that an index kept current from the search log
// (not rebuilt) sees every change the resource API filters and orders
// on: a change of synopsis alone moves a movie to the front, and a new
// first category, year or play group moves it between the filters.
func runVodChanges(t *testing.T, open func(t *testing.T) catalog.Store, base time.Time) {
	s := open(t)
	a := vodMovie(t, "Alpha", []string{"Drama"}, "1999", base)
	b := vodMovie(t, "Beta", []string{"Drama"}, "1999", base.Add(time.Hour))
	upsert(t, s, &a, &b)
	live := liveOf(t, s, catalog.SearchMovies)
	list := func(what string, f catalog.VodFilter, want ...int64) {
		t.Helper()
		f.Paging = firstPage
		vods, total, err := live.Vods(context.Background(), 0, f)
		noErr(t, err, what)
		got := make([]int64, len(vods))
		for i, v := range vods {
			got[i] = v.ID
		}
		wantIDs(t, what, got, want)
		if total != int64(len(want)) {
			t.Fatalf("%s: total %d, want %d", what, total, len(want))
		}
	}
	list("before", catalog.VodFilter{}, b.ID, a.ID)

	a.Synopsis, a.UpdatedAt = "changed", time.Time{}
	upsert(t, s, &a)
	list("after a synopsis change", catalog.VodFilter{}, a.ID, b.ID)

	a.Lists[0] = catalog.NewList([]string{"Horror"})
	a.Year = "2020"
	a.Episodes = []catalog.Server{playServer("Main", "https://cdn.example/a/", 1)}
	a.UpdatedAt = time.Time{}
	upsert(t, s, &a)
	drama, horror := typeID(t, vodTypes(t, s), "Drama"), typeID(t, vodTypes(t, s), "Horror")
	list("t=Drama after a new first category", catalog.VodFilter{TypeID: drama}, b.ID)
	list("t=Horror", catalog.VodFilter{TypeID: horror}, a.ID)
	list("year=1999 after a new year", catalog.VodFilter{Years: catalog.YearRange{From: "1999", To: "1999"}}, b.ID)
	list("year=2020", catalog.VodFilter{Years: catalog.YearRange{From: "2020", To: "2020"}}, a.ID)
	list("from a play group added", catalog.VodFilter{PlayKind: catalog.PlayKinds(a.Episodes)}, a.ID)
}

// VodTypesByMovie maps each movie's id to its type id, as the resource
// API gives them (for engine tests that write rows by hand).
func VodTypesByMovie(tb testing.TB, s catalog.Store) map[int64]int64 {
	tb.Helper()
	vods, _, _ := listVods(tb, s, catalog.VodFilter{Paging: page(1, 100)})
	got := make(map[int64]int64, len(vods))
	for _, v := range vods {
		got[v.ID] = v.TypeID
	}
	return got
}
