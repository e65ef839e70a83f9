package clipapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

type facetJSON struct {
	Meta struct{ Page, Limit, Total int64 }
	Data []facetValue
}

// Clips filter on actor and studio (exact, folded) beside platform and
// q, and their facets count platform, actor and studio under the other
// filters (contract 12); an edit of a clip's actor moves it.
func TestClipBrowse(t *testing.T) {
	e := newEnv(t)
	for _, c := range []catalog.Clip{
		{Title: "one", Actor: "Ann", Studio: "S1", Platform: "JAV"},
		{Title: "two", Actor: "ANN", Studio: "S2", Platform: "ทวิต"},
		{Title: "three", Actor: "Émile", Studio: "S1", Platform: "JAV"},
		{Title: "four", Actor: "", Studio: "s1"},
	} {
		e.addClip(c)
	}
	lists := []struct {
		query string
		want  []int64
	}{
		{"actor=ann", []int64{2, 1}},
		{"actor=emile", []int64{3}},
		{"actor=an", []int64{}},
		{"studio=S1", []int64{4, 3, 1}},
		{"studio=s1&platform=JAV", []int64{3, 1}},
		{"studio=s1&actor=ann", []int64{1}},
		{"q=t&actor=ann", []int64{2}},
		{"actor=", []int64{4, 3, 2, 1}},
	}
	check := func() {
		t.Helper()
		for _, tt := range lists {
			l := decodeList(t, e.get("/api/clips?"+tt.query))
			var got []int64
			for _, c := range l.Data {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) || l.Meta.Total != int64(len(tt.want)) {
				t.Errorf("%s: got %v total %d, want %v", tt.query, got, l.Meta.Total, tt.want)
			}
		}
	}
	check()
	facets := []struct {
		query string
		want  []facetValue
		total int64
	}{
		{"field=actor", []facetValue{{"Ann", 2}, {"Émile", 1}}, 2},
		{"field=studio", []facetValue{{"S1", 3}, {"S2", 1}}, 2},
		{"field=studio&studio=s2", []facetValue{{"S1", 3}, {"S2", 1}}, 2},
		{"field=platform", []facetValue{{"JAV", 2}, {"ทวิต", 1}}, 2},
		{"field=platform&platform=JAV&actor=ann", []facetValue{{"JAV", 1}, {"ทวิต", 1}}, 2},
		{"field=actor&limit=1&page=2", []facetValue{{"Émile", 1}}, 2},
		{"field=actor&q=zzz", []facetValue{}, 0},
	}
	for _, tt := range facets {
		w := e.get("/api/clips/facets?" + tt.query)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tt.query, w.Code, w.Body)
		}
		var got facetJSON
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Data, tt.want) || got.Meta.Total != tt.total {
			t.Errorf("%s: got %v total %d, want %v total %d", tt.query, got.Data, got.Meta.Total, tt.want, tt.total)
		}
	}

	// An edit of the actor alone is seen by the next list.
	if _, err := e.store.UpdateClip(context.Background(), 3, func(c *catalog.Clip) error { c.Actor = "ann"; return nil }); err != nil {
		t.Fatal(err)
	}
	lists = lists[:1]
	lists[0].want = []int64{3, 2, 1}
	check()

	for _, target := range []string{
		"/api/clips?actor=" + strings.Repeat("a", catalog.MaxFilterValue+1),
		"/api/clips?studio=%01",
		"/api/clips/facets",
		"/api/clips/facets?field=title",
		"/api/clips/facets?field=actor&studio=%7F",
	} {
		wantError(t, e.get(target), http.StatusBadRequest)
	}
}

// facetValue is a record of a facet page.
type facetValue struct {
	Value string
	Count int64
}
