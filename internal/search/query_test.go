package search

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// refFind is Find by brute force over docs, the reference the index
// must agree with.
func refFind(docs map[int64]Doc, q Query) Result {
	var hits []Doc
	for _, d := range docs {
		if q.Sort == catalog.SortUpdated || q.Type != 0 || q.Years != nil || q.Play != 0 || q.Since != 0 {
			if d.Changed <= 0 {
				continue
			}
		}
		if q.Group != nil && d.Group != *q.Group ||
			len(q.IDs) > 0 && !slices.Contains(q.IDs, d.ID) ||
			q.Type != 0 && d.Type != q.Type ||
			q.Play != 0 && d.Play&q.Play == 0 ||
			q.Since != 0 && d.Changed < q.Since ||
			!refMatches(d, q.Match) {
			continue
		}
		if q.Years != nil {
			y, err := strconv.Atoi(d.Year)
			if len(d.Year) != 4 || err != nil || y < q.Years[0] || y > q.Years[1] {
				continue
			}
		}
		if catalog.TextMatches(d.Fold, q.Terms) {
			hits = append(hits, d)
		}
	}
	slices.SortFunc(hits, func(a, b Doc) int {
		switch q.Sort {
		case catalog.SortUpdated:
			if q.Ascending {
				return cmp.Or(cmp.Compare(a.Changed, b.Changed), cmp.Compare(a.ID, b.ID))
			}
			return cmp.Or(cmp.Compare(b.Changed, a.Changed), cmp.Compare(b.ID, a.ID))
		case catalog.SortYear:
			return cmp.Or(cmp.Compare(refYear(b), refYear(a)), cmp.Compare(b.ID, a.ID))
		case catalog.SortScore:
			return cmp.Or(cmp.Compare(refScore(b), refScore(a)), cmp.Compare(b.ID, a.ID))
		case catalog.SortHits, catalog.SortHitsDay, catalog.SortHitsWeek, catalog.SortHitsMonth:
			return cmp.Or(cmp.Compare(refHits(b, q.Sort, q.Today), refHits(a, q.Sort, q.Today)), cmp.Compare(b.ID, a.ID))
		case catalog.SortTitle:
			return cmp.Or(strings.Compare(refTitle(a), refTitle(b)), cmp.Compare(b.ID, a.ID))
		}
		return cmp.Compare(b.ID, a.ID)
	})
	res := Result{Total: int64(len(hits)), IDs: []int64{}}
	for i := q.Offset; i < min(q.Offset+q.Limit, res.Total); i++ {
		res.IDs = append(res.IDs, hits[i].ID)
	}
	return res
}

// refTitle is the folded title of d's search text (its first line).
func refTitle(d Doc) string { return strings.Split(d.Fold, "\n")[0] }

// facetFields are the fields the model checks facets of.
var facetFields = []string{"category", "actor", "director", FacetYear, FacetPlatform}

// refFacet is Index.Facet by brute force: each value of field among the
// records q selects, folded, with its count.
func refFacet(docs map[int64]Doc, field string, q Query) map[string]int64 {
	q.Offset, q.Limit = 0, int64(len(docs))
	counts := map[string]int64{}
	for _, id := range refFind(docs, q).IDs {
		d := docs[id]
		switch field {
		case FacetYear:
			if y := refYear(d); y >= 0 {
				counts[fmt.Sprintf("%04d", y)]++
			}
		case FacetPlatform:
			if d.Group != "" {
				counts[d.Group]++
			}
		default:
			vf, _ := catalog.ValueFieldNamed(field)
			seen := map[string]bool{}
			for _, v := range d.Values {
				if f := catalog.FoldValue(v.Value); v.Field == vf && !seen[f] {
					seen[f] = true
					counts[f]++
				}
			}
		}
	}
	return counts
}

// checkFacet compares ix's facet of field under q with refFacet: the
// same values (compared folded) and counts, count descending then
// spelling ascending, and q's page of them.
func checkFacet(t *testing.T, what string, ix *Index, docs map[int64]Doc, field string, q Query) {
	t.Helper()
	want := refFacet(docs, field, q)
	all := q
	all.Offset, all.Limit = 0, int64(len(want))+1
	got := ix.Facet(field, all)
	if got.Total != int64(len(want)) || len(got.Values) != len(want) {
		t.Fatalf("%s: facet %s of %+v: got %d %v, want %v", what, field, q, got.Total, got.Values, want)
	}
	for i, v := range got.Values {
		key := v.Value
		if field != FacetYear && field != FacetPlatform {
			key = catalog.FoldValue(v.Value)
		}
		if want[key] != v.Count {
			t.Fatalf("%s: facet %s of %+v: got %v, want %v", what, field, q, got.Values, want)
		}
		if i > 0 && cmp.Or(cmp.Compare(got.Values[i-1].Count, v.Count)*-1, cmp.Compare(got.Values[i-1].Value, v.Value)) >= 0 {
			t.Fatalf("%s: facet %s of %+v: out of order: %v", what, field, q, got.Values)
		}
	}
	page := ix.Facet(field, q)
	from, to := min(q.Offset, got.Total), min(q.Offset+q.Limit, got.Total)
	if page.Total != got.Total || !slices.Equal(page.Values, got.Values[from:to]) {
		t.Fatalf("%s: facet %s of %+v: page %v, want %v", what, field, q, page.Values, got.Values[from:to])
	}
}

// refMatches reports whether d has every value of match, compared
// folded.
func refMatches(d Doc, match []catalog.FieldValue) bool {
	for _, m := range match {
		if !slices.ContainsFunc(d.Values, func(v catalog.FieldValue) bool {
			return v.Field == m.Field && catalog.FoldValue(v.Value) == m.Value
		}) {
			return false
		}
	}
	return true
}

// refYear is d's place in the year order: the year, -1 without a
// four-digit one, -2 without attributes.
func refYear(d Doc) int {
	if d.Changed <= 0 {
		return -2
	}
	if y, err := strconv.Atoi(d.Year); err == nil && len(d.Year) == 4 && d.Year[0] != '-' && d.Year[0] != '+' {
		return y
	}
	return -1
}

// refScore is d's place in the score order: tenths, -1 without a
// score, -2 without attributes.
func refScore(d Doc) int {
	if d.Changed <= 0 {
		return -2
	}
	whole, tenth, ok := strings.Cut(d.Score, ".")
	w, err1 := strconv.Atoi(whole)
	t, err2 := strconv.Atoi(tenth)
	if !ok || err1 != nil || err2 != nil || len(tenth) != 1 || len(whole) < 1 || len(whole) > 2 || whole[0] == '-' || whole[0] == '+' || w*10+t > 100 {
		return -1
	}
	return w*10 + t
}

// refValues are the values random records draw from: spellings that
// fold alike, and the same name in two fields.
var refValues = []string{"Ann", "ann", "ＡＮＮ", "Bob", "Émile", "emile", "Zoë", "Nhà"}

func randomMovie(r *rand.Rand, id int64) Doc {
	words := []string{"river", "stone", "night", "kyoto", "a", "bay"}
	years := []string{"", "1999", "2001", "2019", "20x0", "2024", "abc"}
	scores := []string{"", "7.5", "10.0", "0.0", "7.5", "9.1", "x"}
	d := Doc{
		ID:      id,
		Fold:    words[r.IntN(len(words))] + " " + words[r.IntN(len(words))],
		Changed: 1_700_000_000 + r.Int64N(50), // many ties: the id breaks them
		Type:    r.Int64N(4),
		Year:    years[r.IntN(len(years))],
		Play:    r.Int64N(4),
		Score:   scores[r.IntN(len(scores))],
	}
	for range r.IntN(4) {
		d.Values = append(d.Values, catalog.FieldValue{Field: catalog.ValueField(1 + r.IntN(3)), Value: refValues[r.IntN(len(refValues))]})
	}
	d.Hits = randomHits(r)
	return d
}

// refDay is the last day a random movie's hit is counted on; queries
// are on it or after (the store's day never runs ahead of the clock).
var refDay = catalog.HitDayOf(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))

// randomHits are small counts (many ties) counted on a day of the 40
// up to refDay: periods of several days, weeks and months.
func randomHits(r *rand.Rand) catalog.Hits {
	if r.IntN(4) == 0 {
		return catalog.Hits{}
	}
	return catalog.Hits{Total: 1 + r.Int64N(5), Day: r.Int64N(3), Week: r.Int64N(4), Month: r.Int64N(5),
		On: refDay - catalog.HitDay(r.IntN(40))}
}

// refHits is d's count that s sorts by, as served on today.
func refHits(d Doc, s catalog.Sort, today catalog.HitDay) int64 {
	h := d.Hits.At(today)
	switch s {
	case catalog.SortHitsDay:
		return h.Day
	case catalog.SortHitsWeek:
		return h.Week
	case catalog.SortHitsMonth:
		return h.Month
	}
	return h.Total
}

func randomQuery(r *rand.Rand) Query {
	sorts := []catalog.Sort{catalog.SortNew, catalog.SortUpdated, catalog.SortUpdated, catalog.SortYear, catalog.SortScore,
		catalog.SortHits, catalog.SortHitsDay, catalog.SortHitsWeek, catalog.SortHitsMonth, catalog.SortTitle}
	q := Query{Sort: sorts[r.IntN(len(sorts))], Ascending: r.IntN(2) == 0, Offset: r.Int64N(40), Limit: 1 + r.Int64N(30),
		Today: refDay + catalog.HitDay(r.IntN(3)*r.IntN(20))} // often refDay; later days roll periods over
	if q.Sort != catalog.SortUpdated {
		q.Ascending = false
	}
	if r.IntN(3) == 0 {
		q.Terms = []string{[]string{"r", "ni", "kyoto", "st"}[r.IntN(4)]}
	}
	if r.IntN(3) == 0 {
		q.Type = 1 + r.Int64N(3)
	}
	if r.IntN(3) == 0 {
		from := 1999 + r.IntN(10)
		q.Years = &[2]int{from, from + r.IntN(25)}
	}
	if r.IntN(3) == 0 {
		q.Play = 1 << r.IntN(2)
	}
	if r.IntN(3) == 0 {
		q.Since = 1_700_000_000 + r.Int64N(60)
	}
	for range r.IntN(3) {
		q.Match = append(q.Match, catalog.FieldValue{Field: catalog.ValueField(1 + r.IntN(3)), Value: catalog.FoldValue(refValues[r.IntN(len(refValues))])})
	}
	if r.IntN(5) == 0 {
		for range 1 + r.IntN(6) {
			q.IDs = append(q.IDs, 1+r.Int64N(300))
		}
	}
	return q
}

// The movie filters and the change order agree with a brute-force
// reference after a bulk build and after every batch of changes
// (changed times, types, years and play groups moving, records gone).
func TestFindMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	docs := map[int64]Doc{}
	ix := New()
	var bulk []Doc
	for id := int64(1); id <= 300; id++ {
		d := randomMovie(r, id)
		docs[id] = d
		bulk = append(bulk, d)
	}
	i := 0
	ix.Build(func() (Doc, bool) {
		if i == len(bulk) {
			return Doc{}, false
		}
		i++
		return bulk[i-1], true
	})
	check := func(round int) {
		t.Helper()
		for range 200 {
			q := randomQuery(r)
			got, want := ix.Find(q), refFind(docs, q)
			if got.Total != want.Total || !slices.Equal(got.IDs, want.IDs) {
				t.Fatalf("round %d, %+v: got %d %v, want %d %v", round, q, got.Total, got.IDs, want.Total, want.IDs)
			}
			checkFacet(t, fmt.Sprint("round ", round), ix, docs, facetFields[r.IntN(len(facetFields))], q)
		}
		// No filter: the order kept until the next change (facetOrders).
		for _, field := range facetFields {
			checkFacet(t, fmt.Sprint("round ", round, ", no filter"), ix, docs, field, Query{Offset: r.Int64N(4), Limit: 1 + r.Int64N(5)})
		}
	}
	check(0)
	for round := 1; round <= 20; round++ {
		var changed []Doc
		var gone []int64
		for range 15 {
			id := 1 + r.Int64N(320)
			// Apply takes the gone ids first: an id is either.
			changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
			if r.IntN(4) == 0 {
				delete(docs, id)
				gone = append(gone, id)
				continue
			}
			gone = slices.DeleteFunc(gone, func(g int64) bool { return g == id })
			d := randomMovie(r, id)
			d.Changed += int64(round) // writes move to the top
			docs[id] = d
			changed = append(changed, d)
		}
		ix.Apply(changed, gone)
		check(round)
	}
}

// A page deep in the change order, the whole order and a narrow filter
// pinned by hand: time descending, the id breaking ties, and reversed
// with Ascending.
func TestFindChangeOrder(t *testing.T) {
	ix := New()
	ix.Apply([]Doc{
		{ID: 1, Fold: "a", Changed: 300, Type: 7, Year: "2001", Play: 1},
		{ID: 2, Fold: "b", Changed: 100, Type: 7, Year: "2001", Play: 2},
		{ID: 3, Fold: "c", Changed: 300, Type: 8, Year: "1999", Play: 3},
		{ID: 4, Fold: "d", Changed: 200, Type: 7, Year: "20x1", Play: 0},
		{ID: 5, Fold: "e", Changed: 50, Year: "0000"},
	}, nil)
	for _, c := range []struct {
		q    Query
		want []int64
		n    int64
	}{
		{Query{Sort: catalog.SortUpdated, Limit: 10}, []int64{3, 1, 4, 2, 5}, 5},
		{Query{Sort: catalog.SortUpdated, Ascending: true, Limit: 10}, []int64{5, 2, 4, 1, 3}, 5},
		{Query{Sort: catalog.SortUpdated, Offset: 2, Limit: 1}, []int64{4}, 5},
		{Query{Sort: catalog.SortUpdated, Type: 7, Limit: 10}, []int64{1, 4, 2}, 3},
		{Query{Sort: catalog.SortUpdated, Years: &[2]int{2000, 2001}, Limit: 10}, []int64{1, 2}, 2},
		{Query{Sort: catalog.SortUpdated, Years: &[2]int{0, 0}, Limit: 10}, []int64{5}, 1},
		{Query{Sort: catalog.SortUpdated, Play: 2, Limit: 10}, []int64{3, 2}, 2},
		{Query{Sort: catalog.SortUpdated, Since: 200, Limit: 10}, []int64{3, 1, 4}, 3},
		{Query{Since: 200, Limit: 10}, []int64{4, 3, 1}, 3},
		{Query{Sort: catalog.SortUpdated, Type: 9, Limit: 10}, []int64{}, 0},
	} {
		got := ix.Find(c.q)
		if got.Total != c.n || !slices.Equal(got.IDs, c.want) {
			t.Errorf("%+v: got %d %v, want %d %v", c.q, got.Total, got.IDs, c.n, c.want)
		}
	}
	// A record that changes leaves its old place and type.
	ix.Apply([]Doc{{ID: 2, Fold: "b", Changed: 400, Type: 8, Year: "2001", Play: 2}}, nil)
	if got := ix.Find(Query{Sort: catalog.SortUpdated, Type: 7, Limit: 10}); !slices.Equal(got.IDs, []int64{1, 4}) {
		t.Errorf("type 7 after the change: got %v, want [1 4]", got.IDs)
	}
	if got := ix.Find(Query{Sort: catalog.SortUpdated, Limit: 1}); !slices.Equal(got.IDs, []int64{2}) {
		t.Errorf("first after the change: got %v, want [2]", got.IDs)
	}
}

// The change order's blocks split and empty as keys come and go, and
// rank and walks agree with a sorted slice.
func TestChangeOrderBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var o changeOrder
	o.settle()
	var want []uint64
	for i := range 30_000 {
		k := r.Uint64N(20_000)
		if j, found := slices.BinarySearch(want, k); found && i%3 == 0 {
			want = slices.Delete(want, j, j+1)
			o.remove(k)
		} else if !found {
			want = slices.Insert(want, j, k)
			o.add(k)
		}
	}
	if o.len() != len(want) {
		t.Fatalf("len %d, want %d", o.len(), len(want))
	}
	for _, i := range []int{0, 1, len(want) / 3, len(want) - 1} {
		var got uint64
		o.walk(i, false, func(k uint64) bool { got = k; return false })
		if got != want[i] {
			t.Errorf("walk up from rank %d starts at %d, want %d", i, got, want[i])
		}
		if got := o.rank(want[i]); got != i {
			t.Errorf("rank(%d) = %d, want %d", want[i], got, i)
		}
	}
	var down []uint64
	o.walk(len(want)-1, true, func(k uint64) bool { down = append(down, k); return len(down) < 5000 })
	for i, k := range down {
		if k != want[len(want)-1-i] {
			t.Fatalf("walk down step %d: %d, want %d", i, k, want[len(want)-1-i])
		}
	}
	if len(o.blocks) < 2 {
		t.Errorf("%d blocks for %d keys: no block split", len(o.blocks), len(want))
	}
}

// An index written to a file and opened again answers every movie
// filter and the change order as before, and keeps following changes.
func TestFileKeepsFacets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	docs := map[int64]Doc{}
	var bulk []Doc
	for id := int64(1); id <= 300; id++ {
		d := randomMovie(r, id)
		docs[id] = d
		bulk = append(bulk, d)
	}
	got := roundTrip(t, build(bulk), filepath.Join(t.TempDir(), "movies.idx"))
	check := func(when string) {
		t.Helper()
		for range 200 {
			q := randomQuery(r)
			g, w := got.Find(q), refFind(docs, q)
			if g.Total != w.Total || !slices.Equal(g.IDs, w.IDs) {
				t.Fatalf("%s, %+v: got %d %v, want %d %v", when, q, g.Total, g.IDs, w.Total, w.IDs)
			}
		}
	}
	check("opened")
	d := Doc{ID: 7, Fold: "moved", Changed: 1_800_000_000, Type: 3, Year: "2024", Play: 2}
	docs[7] = d
	delete(docs, 8)
	got.Apply([]Doc{d}, []int64{8})
	check("after a change")
	// Rounds of changes: the facet sets read from the file are copied
	// before they change, and the order's blocks take inserts.
	for round := range 5 {
		var changed []Doc
		var gone []int64
		for range 40 {
			id := int64(1 + r.IntN(340))
			if r.IntN(4) == 0 {
				delete(docs, id)
				gone = append(gone, id)
				changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
				continue
			}
			d := randomMovie(r, id)
			docs[id] = d
			changed = slices.DeleteFunc(changed, func(d Doc) bool { return d.ID == id })
			changed = append(changed, d)
			gone = slices.DeleteFunc(gone, func(g int64) bool { return g == id })
		}
		got.Apply(changed, gone)
		check("after round " + strconv.Itoa(round))
		if round == 2 {
			got = roundTrip(t, got, filepath.Join(t.TempDir(), "movies.idx"))
			check("opened again")
		}
	}
}

// BenchmarkFindMovies pages the resource API's lists of a million
// synthetic movies (20 types, 80 years, two play groups, a change a
// second over twelve days): the change order by rank, a narrow filter
// by sorting its keys, a broad one by walking the order, and the id
// order with a time filter.
func BenchmarkFindMovies(b *testing.B) {
	const n = 1_000_000
	r := rand.New(rand.NewPCG(9, 9))
	ix := New()
	i := 0
	ix.Build(func() (Doc, bool) {
		if i == n {
			return Doc{}, false
		}
		i++
		return Doc{ID: int64(i), Fold: "movie " + strconv.Itoa(i), Changed: 1_700_000_000 + r.Int64N(n),
			Type: 1 + r.Int64N(20), Year: strconv.Itoa(1950 + r.IntN(80)), Play: 1 + r.Int64N(3)}, true
	})
	for _, c := range []struct {
		name string
		q    Query
	}{
		{"change/first", Query{Sort: catalog.SortUpdated, Limit: 20}},
		{"change/middle", Query{Sort: catalog.SortUpdated, Offset: n / 2, Limit: 20}},
		{"change/last/asc", Query{Sort: catalog.SortUpdated, Ascending: true, Offset: n - 20, Limit: 20}},
		{"type/first", Query{Sort: catalog.SortUpdated, Type: 3, Limit: 20}},
		{"type/middle", Query{Sort: catalog.SortUpdated, Type: 3, Offset: n / 40, Limit: 20}},
		{"year/middle", Query{Sort: catalog.SortUpdated, Years: &[2]int{2000, 2000}, Offset: n / 160, Limit: 20}},
		{"play/middle", Query{Sort: catalog.SortUpdated, Play: 2, Offset: n / 3, Limit: 20}},
		{"since24h", Query{Sort: catalog.SortUpdated, Since: 1_700_000_000 + n - 86400, Limit: 20}},
		{"ids-order/since24h", Query{Since: 1_700_000_000 + n - 86400, Limit: 20}},
		{"term/type", Query{Sort: catalog.SortUpdated, Terms: []string{"77"}, Type: 3, Offset: 100, Limit: 20}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total int64
			start := cpuTime()
			for b.Loop() {
				total = ix.Find(c.q).Total
			}
			// CPU time as well as wall time: the shared machine's load
			// stretches the wall time, not the work.
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(total), "matches")
		})
	}
}

// TestFileMapsFacets: an index opened from its file views the facets'
// attribute pages and change-order blocks in the mapping instead of
// copying them to the heap (at 10M they are 200 MB), and a change
// copies only the page and the blocks it touches.
func TestFileMapsFacets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := int64(3 * blockMax) // several order blocks, three attribute pages
	var bulk []Doc
	for id := int64(1); id <= n; id++ {
		bulk = append(bulk, randomMovie(r, id))
	}
	got := roundTrip(t, build(bulk), filepath.Join(t.TempDir(), "movies.idx"))
	attrs, order := &got.facets.byID.pageTable, &got.facets.order
	if len(order.blocks) < 2 || len(attrs.pages) < 2 {
		t.Fatalf("%d order blocks and %d attribute pages: the test needs several of each", len(order.blocks), len(attrs.pages))
	}
	if m := sharedChunks(attrs.pages); m != len(attrs.pages) {
		t.Fatalf("%d of %d attribute pages viewed in the file after opening", m, len(attrs.pages))
	}
	if m := sharedChunks(order.blocks); m != len(order.blocks) {
		t.Fatalf("%d of %d order blocks viewed in the file after opening", m, len(order.blocks))
	}
	// One record changes: its attribute page is copied, and the order's
	// block it leaves and the one it joins (the newest); the rest stay
	// views.
	got.Apply([]Doc{{ID: 5, Fold: "moved", Changed: 1_800_000_000, Type: 2, Year: "2024", Play: 1}}, nil)
	if m := sharedChunks(attrs.pages); m != len(attrs.pages)-1 {
		t.Errorf("%d of %d attribute pages still views after one change, want all but one", m, len(attrs.pages))
	}
	if m := sharedChunks(order.blocks); m < len(order.blocks)-2 || m == len(order.blocks) {
		t.Errorf("%d of %d order blocks still views after one change, want all but one or two", m, len(order.blocks))
	}
	if a := got.facets.byID.get(5); a.changed != 1_800_000_000 || a.typ != 2 || !a.set {
		t.Errorf("record 5's attributes after the change: %+v", a)
	}
}

// sharedChunks is how many of cs are shared (views of the file or of
// a frozen index).
func sharedChunks[T any](cs []chunk[T]) int {
	k := 0
	for _, c := range cs {
		if c.shared {
			k++
		}
	}
	return k
}

// browseIndex is BenchmarkBrowse1M's index, built once per process, so
// that -count repeats its rows, not its build.
var browseIndex = sync.OnceValue(func() *Index {
	const n = 1_000_000
	r := rand.New(rand.NewPCG(9, 9))
	ix := New()
	i := 0
	ix.Build(func() (Doc, bool) {
		if i == n {
			return Doc{}, false
		}
		i++
		d := Doc{ID: int64(i), Fold: "movie " + strconv.Itoa(i), Changed: 1_700_000_000 + r.Int64N(n),
			Type: 1 + r.Int64N(20), Year: strconv.Itoa(1950 + r.IntN(80)), Play: 1 + r.Int64N(3),
			Score: fmt.Sprintf("%d.%d", r.IntN(10), r.IntN(10))}
		d.Values = []catalog.FieldValue{
			{Field: catalog.ValueCategory, Value: "Category " + strconv.Itoa(r.IntN(20))},
			{Field: catalog.ValueStudio, Value: "Studio " + strconv.Itoa(r.IntN(2000))},
			{Field: catalog.ValueCountry, Value: "Country " + strconv.Itoa(r.IntN(50))},
		}
		for range 1 + r.IntN(3) {
			d.Values = append(d.Values, catalog.FieldValue{Field: catalog.ValueActor, Value: "Actor " + strconv.Itoa(r.IntN(1+r.IntN(50_000)))})
		}
		if r.IntN(2) == 0 { // half the movies played, a tenth of them today
			d.Hits = catalog.Hits{Total: 1 + r.Int64N(5000), Week: r.Int64N(50), Month: r.Int64N(500), On: refDay - catalog.HitDay(r.IntN(10))}
			if d.Hits.On == refDay {
				d.Hits.Day = 1 + r.Int64N(20)
			}
		}
		return d, true
	})
	return ix
})

// BenchmarkBrowse1M is the browsing of contract 12 on a million
// synthetic movies (20 categories, 2,000 studios, 50,000 actors with a
// few popular ones, 80 years, scores): a filtered deep page, two
// filters, the year and score orders, and facet pages, beside the
// plain list in id order for comparison. The sort=title rows run again
// as /sorted-at-query, the title order's alternative (sortedAtQuery).
func BenchmarkBrowse1M(b *testing.B) {
	const n = 1_000_000
	ix := browseIndex()
	_, held := ix.size()
	b.ReportMetric(float64(held), "index-bytes")
	cat := catalog.FieldValue{Field: catalog.ValueCategory, Value: catalog.FoldValue("Category 3")}
	studio := catalog.FieldValue{Field: catalog.ValueStudio, Value: catalog.FoldValue("Studio 7")}
	actor := catalog.FieldValue{Field: catalog.ValueActor, Value: catalog.FoldValue("Actor 1")}
	country := catalog.FieldValue{Field: catalog.ValueCountry, Value: catalog.FoldValue("Country 4")}
	for _, c := range []struct {
		name  string
		q     Query
		facet string
	}{
		{"list/first", Query{Limit: 20}, ""},
		{"list/middle", Query{Offset: n / 2, Limit: 20}, ""},
		{"category/deep", Query{Match: []catalog.FieldValue{cat}, Offset: n / 40, Limit: 20}, ""},
		{"actor/deep", Query{Match: []catalog.FieldValue{actor}, Offset: 200, Limit: 20}, ""}, // the actor has 418 movies
		// A set in two of three movies: bitmap containers, where a
		// rank is a scan of words (bitmapDown).
		{"play/deep", Query{Play: 1, Offset: n / 3, Limit: 20}, ""},
		{"category+country/deep", Query{Match: []catalog.FieldValue{cat, country}, Offset: 900, Limit: 20}, ""},
		{"category+studio", Query{Match: []catalog.FieldValue{cat, studio}, Limit: 20}, ""},
		{"category+year/deep", Query{Match: []catalog.FieldValue{cat}, Years: &[2]int{2000, 2009}, Offset: 6000, Limit: 20}, ""},
		{"sort-year/deep", Query{Sort: catalog.SortYear, Offset: n / 2, Limit: 20}, ""},
		{"sort-score/category/deep", Query{Sort: catalog.SortScore, Match: []catalog.FieldValue{cat}, Offset: n / 40, Limit: 20}, ""},
		{"sort-hits/deep", Query{Sort: catalog.SortHits, Today: refDay, Offset: n / 2, Limit: 20}, ""},
		{"sort-hits-day/deep", Query{Sort: catalog.SortHitsDay, Today: refDay, Offset: n / 2, Limit: 20}, ""},
		{"sort-hits-week/category/deep", Query{Sort: catalog.SortHitsWeek, Today: refDay, Match: []catalog.FieldValue{cat}, Offset: n / 40, Limit: 20}, ""},
		{"sort-hits-month/rolled-over/deep", Query{Sort: catalog.SortHitsMonth, Today: refDay + 40, Offset: n / 2, Limit: 20}, ""},
		{"sort-title/deep", Query{Sort: catalog.SortTitle, Offset: n / 2, Limit: 20}, ""},
		{"sort-title/category/deep", Query{Sort: catalog.SortTitle, Match: []catalog.FieldValue{cat}, Offset: n / 40, Limit: 20}, ""},
		{"sort-title/actor/deep", Query{Sort: catalog.SortTitle, Match: []catalog.FieldValue{actor}, Offset: 400, Limit: 20}, ""},
		{"sort-title/deep/sorted-at-query", Query{Sort: catalog.SortTitle, Offset: n / 2, Limit: 20}, ""},
		{"sort-title/category/deep/sorted-at-query", Query{Sort: catalog.SortTitle, Match: []catalog.FieldValue{cat}, Offset: n / 40, Limit: 20}, ""},
		{"sort-title/actor/deep/sorted-at-query", Query{Sort: catalog.SortTitle, Match: []catalog.FieldValue{actor}, Offset: 400, Limit: 20}, ""},
		{"facet-actor", Query{Limit: 20}, "actor"},
		{"facet-actor/deep", Query{Offset: 20_000, Limit: 20}, "actor"},
		{"facet-actor/category", Query{Match: []catalog.FieldValue{cat}, Limit: 20}, "actor"},
		{"facet-studio/actor", Query{Match: []catalog.FieldValue{actor}, Limit: 20}, "studio"},
		{"facet-year/category", Query{Match: []catalog.FieldValue{cat}, Limit: 20}, FacetYear},
		// Last: each read follows an edit of one movie's actor, so no
		// answer of an earlier version of the index serves it.
		{"facet-actor/changed", Query{Limit: 20}, "actor"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total int64
			start := cpuTime()
			edits := 0
			for b.Loop() {
				if strings.HasSuffix(c.name, "/changed") {
					edits++
					ix.Apply([]Doc{{ID: 1, Fold: "movie 1", Changed: 1_700_000_000, Values: []catalog.FieldValue{
						{Field: catalog.ValueActor, Value: "Actor " + strconv.Itoa(edits%2)}}}}, nil)
				}
				if c.facet != "" {
					total = ix.Facet(c.facet, c.q).Total
				} else if strings.HasSuffix(c.name, "/sorted-at-query") {
					total = sortedAtQuery(ix, c.q).Total
				} else {
					total = ix.Find(c.q).Total
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(total), "matches")
		})
	}
}

// sortedAtQuery is Find in title order without the title order: the
// match (every record when q has no filter) sorted by title at query
// time, then paged. It is what the order saves (BENCHMARKS.md).
func sortedAtQuery(ix *Index, q Query) Result {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	m, done, ok := ix.matching(q)
	if !ok {
		return Result{IDs: []int64{}}
	}
	defer done()
	var ids []uint32
	if m == nil {
		ids = ix.all.ToArray()
	} else {
		m.each(func(id uint32) { ids = append(ids, id) })
	}
	slices.SortFunc(ids, ix.titleCmp)
	res := Result{Total: int64(len(ids)), IDs: []int64{}}
	for _, id := range ids[min(q.Offset, res.Total):min(q.Offset+q.Limit, res.Total)] {
		res.IDs = append(res.IDs, int64(id))
	}
	return res
}
