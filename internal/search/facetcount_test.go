package search

import (
	"slices"
	"sync"
	"testing"

	"catalog/internal/catalog"
)

// The unfiltered facets are kept between reads (facetOrders), yet a
// change to the index shows in the next read: an actor edited, added
// or deleted with its movie, a year changed, a clip's platform changed.
func TestFacetOrderFollowsChanges(t *testing.T) {
	actor := func(names ...string) []catalog.FieldValue {
		var vs []catalog.FieldValue
		for _, n := range names {
			vs = append(vs, catalog.FieldValue{Field: catalog.ValueActor, Value: n})
		}
		return vs
	}
	movie := func(id int64, year string, actors ...string) Doc {
		return Doc{ID: id, Fold: "movie", Changed: 1_700_000_000 + id, Year: year, Values: actor(actors...)}
	}
	start := []Doc{
		movie(1, "2001", "Aoi", "Rin"),
		movie(2, "2001", "Aoi"),
		movie(3, "2002", "Rin"),
		{ID: 4, Fold: "clip", Group: "x"},
		{ID: 5, Fold: "clip", Group: "x"},
	}
	for _, c := range []struct {
		name         string
		field        string
		docs         []Doc
		gone         []int64
		before, want []catalog.FacetValue
	}{
		{"an actor replaced", "actor", []Doc{movie(2, "2001", "Rin")}, nil,
			[]catalog.FacetValue{{Value: "Aoi", Count: 2}, {Value: "Rin", Count: 2}},
			[]catalog.FacetValue{{Value: "Rin", Count: 3}, {Value: "Aoi", Count: 1}}},
		{"an actor added", "actor", []Doc{movie(6, "2003", "Mei")}, nil,
			[]catalog.FacetValue{{Value: "Aoi", Count: 2}, {Value: "Rin", Count: 2}},
			[]catalog.FacetValue{{Value: "Aoi", Count: 2}, {Value: "Rin", Count: 2}, {Value: "Mei", Count: 1}}},
		{"a movie deleted", "actor", nil, []int64{1},
			[]catalog.FacetValue{{Value: "Aoi", Count: 2}, {Value: "Rin", Count: 2}},
			[]catalog.FacetValue{{Value: "Aoi", Count: 1}, {Value: "Rin", Count: 1}}},
		{"a year changed", FacetYear, []Doc{movie(1, "2002", "Aoi", "Rin")}, nil,
			[]catalog.FacetValue{{Value: "2001", Count: 2}, {Value: "2002", Count: 1}},
			[]catalog.FacetValue{{Value: "2002", Count: 2}, {Value: "2001", Count: 1}}},
		{"a platform changed", FacetPlatform, []Doc{{ID: 5, Fold: "clip", Group: "y"}}, nil,
			[]catalog.FacetValue{{Value: "x", Count: 2}},
			[]catalog.FacetValue{{Value: "x", Count: 1}, {Value: "y", Count: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix := build(start)
			read := func() []catalog.FacetValue {
				t.Helper()
				p := ix.Facet(c.field, Query{Limit: 20})
				if p.Total != int64(len(p.Values)) {
					t.Fatalf("total %d for %d values", p.Total, len(p.Values))
				}
				return p.Values
			}
			for range 2 { // the second read is the kept order's
				if got := read(); !slices.Equal(got, c.before) {
					t.Fatalf("before: got %v, want %v", got, c.before)
				}
			}
			ix.Apply(c.docs, c.gone)
			if got := read(); !slices.Equal(got, c.want) {
				t.Errorf("after: got %v, want %v", got, c.want)
			}
		})
	}
}

// A field's unfiltered facet is computed once per version of the
// index, however many read it at once, and again after a reset.
func TestFacetOrdersComputeOncePerVersion(t *testing.T) {
	var c facetOrders
	var mu sync.Mutex
	runs := 0
	compute := func() []facetEntry {
		mu.Lock()
		defer mu.Unlock()
		runs++
		return []facetEntry{{key: 1, count: uint32(runs)}}
	}
	read := func() {
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() { c.get("actor", compute) })
		}
		wg.Wait()
	}
	read()
	if runs != 1 {
		t.Fatalf("16 reads computed %d times, want 1", runs)
	}
	read()
	if runs != 1 {
		t.Fatalf("32 reads computed %d times, want 1", runs)
	}
	c.reset()
	read()
	if got := c.get("actor", compute); runs != 2 || got[0].count != 2 {
		t.Fatalf("after a reset: %d computations, answer %v; want 2, the second's", runs, got)
	}
}
