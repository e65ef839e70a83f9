package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestIntersectMatchesBruteForce checks searches of two and three words
// of every mix of densities (a word in half of the titles down to one in
// 400), so that both ways of intersecting (probing bits for sparse sets,
// roaring's AND otherwise) and the group filter are compared with a
// substring scan, on pages from the top and deep ones.
func TestIntersectMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	every := map[string]int{"half": 2, "tenth": 10, "fortieth": 40, "rare": 400}
	groups := []string{"", "JAV"}
	docs := map[int64]Doc{}
	var list []Doc
	for id := int64(1); id <= 20000; id++ {
		var words []string
		for w, n := range every {
			if rng.IntN(n) == 0 {
				words = append(words, w)
			}
		}
		d := Doc{ID: id, Fold: strings.Join(words, " ") + fmt.Sprintf(" #%d", id%7), Group: groups[rng.IntN(2)]}
		docs[id] = d
		list = append(list, d)
	}
	ix := build(list)
	if !sparse(ix.match("rare")) || !sparse(ix.match("fortieth")) || sparse(ix.match("half")) {
		t.Fatal("the test words do not have the densities the test needs")
	}
	words := []string{"half", "tenth", "fortieth", "rare", "#3", "alf"}
	for _, a := range words {
		for _, b := range words {
			for _, c := range append(words, "") {
				terms := slices.Compact(slices.DeleteFunc([]string{a, b, c}, func(s string) bool { return s == "" }))
				for _, group := range []*string{nil, &groups[1]} {
					want := brute(docs, terms, group)
					for _, offset := range []int64{0, 7, int64(len(want)) / 2, int64(len(want)) - 1} {
						got := ix.Find(Query{Terms: terms, Group: group, Offset: max(offset, 0), Limit: 20})
						page := want[min(int(max(offset, 0)), len(want)):min(int(max(offset, 0))+20, len(want))]
						if got.Total != int64(len(want)) || !slices.Equal(got.IDs, page) {
							t.Fatalf("%q group %v offset %d: total %d ids %v, want %d %v", terms, group != nil, offset, got.Total, got.IDs, len(want), page)
						}
					}
				}
			}
		}
	}
}

// TestIntersectEmptiedGroup: a group whose records are all gone leaves
// an empty set, which must give no match rather than a panic.
func TestIntersectEmptiedGroup(t *testing.T) {
	var list []Doc
	for id := int64(1); id <= 3000; id++ {
		d := Doc{ID: id, Fold: "alpha beta", Group: "A"}
		if id%1000 == 0 {
			d.Fold = "alpha beta gamma"
		}
		list = append(list, d)
	}
	list = append(list, Doc{ID: 5000, Fold: "gamma delta", Group: "X"})
	ix := build(list)
	ix.Apply(nil, []int64{5000})
	group := "X"
	for _, terms := range [][]string{{"gamma", "alpha"}, {"gamma"}, {"gamma", "alpha", "beta"}} {
		if got := ix.Find(Query{Terms: terms, Group: &group, Limit: 20}); got.Total != 0 || len(got.IDs) != 0 {
			t.Errorf("%q in an emptied group: %+v", terms, got)
		}
	}
}

// An intersection keeps the bit copy of a term's set for the next query
// with that term; every change to a title that holds or held the term
// drops it, so that no search answers from a copy older than the set.
func TestIntersectKeepsCopiesCurrent(t *testing.T) {
	docs := map[int64]Doc{}
	var initial []Doc
	for id := int64(1); id <= 4000; id++ {
		title := "w"
		if id%20 == 0 {
			title += " alpha"
		}
		if id%25 == 0 {
			title += " bravo"
		}
		docs[id] = Doc{ID: id, Fold: title}
		initial = append(initial, docs[id])
	}
	ix := build(initial)
	terms := []string{"alpha", "bravo"}
	check := func(step string) {
		t.Helper()
		want := brute(docs, terms, nil)
		got := ix.Find(Query{Terms: terms, Limit: int64(len(docs))})
		if got.Total != int64(len(want)) || !slices.Equal(got.IDs, want) {
			t.Fatalf("%s: %d ids %v, want %d %v", step, got.Total, got.IDs, len(want), want)
		}
	}
	check("first query")
	if ix.dense.get("alpha") == nil {
		t.Fatal("the larger sparse set's copy was not kept")
	}
	check("from the kept copy")
	change := func(step string, d Doc) {
		docs[d.ID] = d
		ix.Apply([]Doc{d}, nil)
		check(step)
	}
	change("a new id past the copy's range", Doc{ID: 4001, Fold: "alpha bravo new"})
	check("again")
	change("a title that loses both terms", Doc{ID: 100, Fold: "charlie"})
	change("a title that gains both", Doc{ID: 7, Fold: "alpha bravo"})
	check("again")
	delete(docs, 200)
	ix.Apply(nil, []int64{200})
	check("a deleted id")
	change("a title that loses one term", Doc{ID: 300, Fold: "bravo"})
}
