package search

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"catalog/internal/catalog"
)

// frozenDoc is a random movie with a group and a longer title, so that
// every part of the index (lists, groups, words, facets, pages of two
// id ranges, several blocks of the change order) takes changes.
func frozenDoc(r *rand.Rand, id int64, groups []string) Doc {
	d := randomMovie(r, id)
	d.Group = groups[r.IntN(len(groups))]
	d.Fold += " " + catalog.SearchText(randomTitle(r), "")
	return d
}

func frozenID(r *rand.Rand) int64 {
	if r.IntN(5) == 0 {
		return 1<<20 + r.Int64N(200)
	}
	return 1 + r.Int64N(5200)
}

// frozenChanges makes n random changes to docs and returns them as
// Apply takes them.
func frozenChanges(r *rand.Rand, docs map[int64]Doc, groups []string, n int) (changed []Doc, gone []int64) {
	for range n {
		id := frozenID(r)
		changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
		gone = slices.DeleteFunc(gone, func(g int64) bool { return g == id })
		if r.IntN(4) == 0 {
			delete(docs, id)
			gone = append(gone, id)
			continue
		}
		d := frozenDoc(r, id, groups)
		d.Changed += 100 // moves to the top of the change order
		docs[id] = d
		changed = append(changed, d)
	}
	return changed, gone
}

// modelHits is a hit batch of n movies of docs (and now and then an
// id with no record, which the index skips), added to their counts in
// docs as a store adds them (catalog.HitStore.AddHits) on a day of the
// 30 up to refDay, so that periods roll over back and forth in the
// index's orders; it returns the counts as stored, as
// catalog.SearchUpdate.Hits does.
func modelHits(r *rand.Rand, docs map[int64]Doc, n int) []catalog.HitsOf {
	ids := slices.Sorted(maps.Keys(docs))
	var out []catalog.HitsOf
	for range n {
		id := frozenID(r)
		if len(ids) > 0 && r.IntN(8) != 0 {
			id = ids[r.IntN(len(ids))]
		}
		out = slices.DeleteFunc(out, func(h catalog.HitsOf) bool { return h.ID == id })
		d, ok := docs[id]
		if !ok {
			out = append(out, catalog.HitsOf{ID: id, Hits: catalog.Hits{Total: 1, Day: 1, Week: 1, Month: 1, On: refDay}})
			continue
		}
		day, k := refDay-catalog.HitDay(r.IntN(30)), 1+r.Int64N(3)
		h := d.Hits
		grow := func(n *int64, from catalog.HitDay) {
			if h.On < from {
				*n = 0
			}
			*n += k
		}
		grow(&h.Day, day)
		grow(&h.Week, day.WeekStart())
		grow(&h.Month, day.MonthStart())
		h.Total += k
		h.On = max(h.On, day)
		d.Hits = h
		docs[id] = d
		out = append(out, catalog.HitsOf{ID: id, Hits: h})
	}
	return out
}

// checkHitOrders compares every hits order, unfiltered and within a
// group, with a brute force over docs, on a day of its period or a
// later one (rolled over).
func checkHitOrders(t *testing.T, what string, r *rand.Rand, ix *Index, docs map[int64]Doc, groups []string) {
	t.Helper()
	for _, s := range []catalog.Sort{catalog.SortHits, catalog.SortHitsDay, catalog.SortHitsWeek, catalog.SortHitsMonth} {
		q := Query{Sort: s, Today: refDay + catalog.HitDay(r.IntN(2)*r.IntN(40)), Offset: r.Int64N(8), Limit: 1 + r.Int64N(40)}
		if r.IntN(3) == 0 {
			q.Group = &groups[r.IntN(len(groups))]
		}
		got, want := ix.Find(q), refFind(docs, q)
		if got.Total != want.Total || !slices.Equal(got.IDs, want.IDs) {
			t.Fatalf("%s: %+v: got %d %v, want %d %v", what, q, got.Total, got.IDs, want.Total, want.IDs)
		}
	}
}

// checkFind compares n random queries (terms, groups, every movie
// filter, both orders) on ix with a brute force over docs.
func checkFind(t *testing.T, what string, r *rand.Rand, ix *Index, docs map[int64]Doc, groups []string, n int) {
	t.Helper()
	for range n {
		q := randomQuery(r)
		if r.IntN(4) == 0 {
			q.Group = &groups[r.IntN(len(groups))]
		}
		if r.IntN(4) == 0 {
			q.Terms, _ = randomSearch(r, groups)
		}
		got, want := ix.Find(q), refFind(docs, q)
		if got.Total != want.Total || !slices.Equal(got.IDs, want.IDs) {
			t.Fatalf("%s: %+v: got %d %v, want %d %v", what, q, got.Total, got.IDs, want.Total, want.IDs)
		}
		checkFacet(t, what, ix, docs, facetFields[r.IntN(len(facetFields))], q)
	}
	// A field with no filter: the order kept between reads until the
	// index changes (facetOrders).
	field := facetFields[r.IntN(len(facetFields))]
	checkFacet(t, what+", no filter", ix, docs, field, Query{Offset: r.Int64N(4), Limit: 1 + r.Int64N(5)})
}

// TestFrozenViewWrittenWhileChanging: a frozen view of the index is
// written to a file while changes are applied to the index and
// searches read it (run with -race). The file holds exactly the records
// of the moment of the freeze; the index answers with every change,
// whether it goes on thawed or is replaced by the file's index with the
// changes applied again; and it freezes again after either.
func TestFrozenViewWrittenWhileChanging(t *testing.T) {
	for _, fromFile := range []bool{false, true} {
		name := "built"
		if fromFile {
			name = "from its file"
		}
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, 12))
			groups := []string{"", "JAV", "ทวิต"}
			docs := map[int64]Doc{}
			for range 6000 {
				id := frozenID(r)
				docs[id] = frozenDoc(r, id, groups)
			}
			ix := build(slices.SortedFunc(maps.Values(docs), func(a, b Doc) int { return int(a.ID - b.ID) }))
			path := filepath.Join(t.TempDir(), "movies.index")
			if fromFile {
				ix = roundTrip(t, ix, path)
				ix.Apply(frozenChanges(r, docs, groups, 300))
			}
			for cycle := range 4 {
				atFreeze := maps.Clone(docs)
				view := ix.freeze()
				written := make(chan error, 1)
				go func() { written <- view.WriteFile(path, FileHeader{Kind: 2, Version: int64(cycle), Identity: "t"}) }()
				stop := make(chan struct{})
				var searchers sync.WaitGroup
				for g := range 2 {
					searchers.Go(func() {
						r := rand.New(rand.NewPCG(uint64(g), uint64(cycle)))
						for {
							select {
							case <-stop:
								return
							default:
								ix.Find(randomQuery(r))
							}
						}
					})
				}
				var journal []change
				for range 8 {
					changed, gone := frozenChanges(r, docs, groups, 150)
					ix.Apply(changed, gone)
					journal = append(journal, change{docs: changed, gone: gone})
					checkFind(t, "the index while its view is written", r, ix, docs, groups, 10)
				}
				if err := <-written; err != nil {
					t.Fatal(err)
				}
				close(stop)
				searchers.Wait()
				file, h, err := OpenFile(path)
				if err != nil || h.Version != int64(cycle) {
					t.Fatalf("cycle %d: file version %d, %v", cycle, h.Version, err)
				}
				checkFind(t, "the file written from the view", r, file, atFreeze, groups, 150)
				if cycle%2 == 0 {
					ix.thaw()
				} else {
					for _, c := range journal {
						file.Apply(c.docs, c.gone)
					}
					ix = file
				}
				checkFind(t, "the index after the write", r, ix, docs, groups, 150)
				if ix.Len() != len(docs) {
					t.Fatalf("cycle %d: Len %d, want %d", cycle, ix.Len(), len(docs))
				}
			}
		})
	}
}
