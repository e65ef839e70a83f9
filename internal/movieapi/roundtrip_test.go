package movieapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/fetchguard"
)

// Collecting from another catalog gives the same catalog (contract 10):
// a second instance collects this one over its MacCMS API, and serves
// every field MacCMS carries as this one does, in JSON and in XML. Only
// the ids, the type ids and the change times are the second instance's
// own.
func TestCollectRoundTrip(t *testing.T) {
	origin := newTestStore(t)
	seedDemo(t, origin, 1, 60)
	addMovies(t, origin, roundTripMovies()...)
	served := httptest.NewServer(newService(t, origin, nil))
	t.Cleanup(served.Close)
	// The origin's types bound to local categories of the same names
	// (the operator's rules), so that every record is shown.
	types, err := origin.VodTypes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var rules []catalog.Synonym
	for _, ty := range types {
		rules = append(rules, catalog.Synonym{Local: ty.Name, Remote: ty.Name})
	}
	want := newService(t, origin, nil)

	for _, tt := range []struct {
		format, source string
		records        func(testing.TB, []byte) map[string]string
	}{
		{"json", "/api.php/provide/vod/", jsonRecords},
		{"xml", "/api.php/provide/vod/at/xml/", xmlRecords},
	} {
		t.Run(tt.format, func(t *testing.T) {
			copied := newTestStore(t)
			run, sum, err := collect.Run(context.Background(), copied, collect.Options{Source: "origin", URL: served.URL + tt.source, Synonyms: rules,
				Fetch: fetchguard.Options{AllowPrivate: true}}) // the served instance is on this machine
			if err != nil || run.Rejected > 0 {
				t.Fatalf("collect: %+v, rejects %+v, %v", run, sum.Rejects, err)
			}
			got := newService(t, copied, nil)
			target := vodPath + "?ac=detail&pagesize=100&at=" + tt.format
			wantRecs := tt.records(t, get(t, want, target, http.StatusOK).body)
			gotRecs := tt.records(t, get(t, got, target, http.StatusOK).body)
			if len(wantRecs) < 60 || len(gotRecs) != len(wantRecs) {
				t.Fatalf("got %d records, want %d (at least 60)", len(gotRecs), len(wantRecs))
			}
			for key, w := range wantRecs {
				if g := gotRecs[key]; g != w {
					t.Errorf("%s:\n got %s\nwant %s", key, g, w)
				}
			}
			if tt.format == "json" {
				// The JSON form carries both posters apart: the movies
				// themselves are the same, an empty portrait poster
				// included.
				wantMovies, gotMovies := carried(t, origin), carried(t, copied)
				for key, w := range wantMovies {
					if g := gotMovies[key]; g != w {
						t.Errorf("movie %s:\n got %s\nwant %s", key, g, w)
					}
				}
			}
		})
	}
}

// carried are the movies of store by recordKey, each as the fields the
// MacCMS JSON form carries: all but the categories after the first and
// the studios (and the ids and times, which are each catalog's own).
func carried(t testing.TB, store catalog.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	n, err := store.CountMovies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for id := int64(1); len(out) < int(n) && id < 2000; id++ {
		m, err := store.GetMovie(ctx, id)
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		if cats := m.Lists[0].Items(); len(cats) > 0 {
			first = cats[0]
		}
		out[recordKey(m.Name, m.Year)] = fmt.Sprintf("%q %q %q %q %q %q category %q actor %q director %q genre %q country %q synopsis %q episodes %s",
			m.Name, m.Slug, m.IDCode, m.Year, m.Release, []string{m.Poster1URL, m.Poster2URL}, first,
			m.Lists[1].Items(), m.Lists[2].Items(), m.Lists[4].Items(), m.Lists[5].Items(), m.Synopsis, catalog.EpisodesJSON(m.Episodes))
	}
	if len(out) != int(n) {
		t.Fatalf("found %d of %d movies", len(out), n)
	}
	return out
}

// roundTripMovies are what the demo catalog lacks: server names that
// hold the characters play lists split on and XML escapes, or two
// spaces in a row; an episode with only an embed link before one with
// both; an HLS link that does not end in .m3u8; no portrait poster.
func roundTripMovies() []movieInput {
	return []movieInput{
		{Movie: catalog.Movie{ID: 1001, Name: "Round Trip One", Year: "2020", Poster1URL: "https://img.example/l.jpg",
			Episodes: []catalog.Server{
				{Name: `Q&A "1" <$$$#>`, Episodes: []catalog.Episode{
					{Name: "Ep 1", LinkEmbed: "https://p.example/1"},
					{Name: "Ep 2", LinkEmbed: "https://p.example/2", LinkM3U8: "https://c.example/2.m3u8"},
					{Name: "Ep 3", LinkM3U8: "https://c.example/live?ep=3"}}},
				{Name: "Main", Episodes: []catalog.Episode{{Name: "Ep 1", LinkM3U8: "https://m.example/1.m3u8"}}}}},
			lists: [catalog.NumLists][]string{{"Drama"}}},
		{Movie: catalog.Movie{ID: 1002, Name: "Round Trip Two", Year: "2021", Poster1URL: "https://img.example/l2.jpg",
			Poster2URL: "https://img.example/p2.jpg", Episodes: []catalog.Server{
				{Name: "A", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://a.example/1"}}},
				{Name: "B  two", Episodes: []catalog.Episode{{Name: "Full", LinkEmbed: "https://b.example/1"}}}}}},
	}
}

// recordKey names a record in both catalogs: its name and year.
func recordKey(name, year string) string { return name + " (" + year + ")" }

// jsonRecords are the records of a JSON page by recordKey, each as its
// members other than the ids and the change time, in key order.
func jsonRecords(t testing.TB, body []byte) map[string]string {
	t.Helper()
	var env struct{ List []map[string]any }
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, rec := range env.List {
		key := recordKey(fmt.Sprint(rec["vod_name"]), fmt.Sprint(rec["vod_year"]))
		delete(rec, "vod_id")
		delete(rec, "type_id")
		delete(rec, "vod_time")
		text, err := json.Marshal(rec) // map keys sorted
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := out[key]; dup {
			t.Fatalf("two records are %s", key)
		}
		out[key] = string(text)
	}
	return out
}

// xmlNode is any element with its attributes, text and children.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Text    string     `xml:",chardata"`
	Nodes   []xmlNode  `xml:",any"`
}

func (n xmlNode) String() string {
	var b strings.Builder
	b.WriteString("<" + n.XMLName.Local)
	for _, a := range n.Attrs {
		fmt.Fprintf(&b, " %s=%q", a.Name.Local, a.Value)
	}
	fmt.Fprintf(&b, ">%q", n.Text)
	for _, c := range n.Nodes {
		b.WriteString(c.String())
	}
	return b.String() + "</" + n.XMLName.Local + ">"
}

// xmlRecords are the <video> records of an XML page by recordKey, each
// as its elements other than the ids and the change time.
func xmlRecords(t testing.TB, body []byte) map[string]string {
	t.Helper()
	var doc struct {
		Videos []xmlNode `xml:"list>video"`
	}
	if err := xml.NewDecoder(bytes.NewReader(body)).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, v := range doc.Videos {
		var name, year string
		v.Nodes = slices.DeleteFunc(v.Nodes, func(c xmlNode) bool {
			switch c.XMLName.Local {
			case "name":
				name = c.Text
			case "year":
				year = c.Text
			case "id", "tid", "last":
				return true
			}
			return false
		})
		key := recordKey(name, year)
		if _, dup := out[key]; dup {
			t.Fatalf("two records are %s", key)
		}
		out[key] = v.String()
	}
	return out
}
