package maccms_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/movieapi/movietest"
)

// A collector written after MacCMS v10's own (application/common/model/
// Collect.php, vod_json and vod_xml), to show that it collects from this
// service: the same request URLs (every parameter sent, empty when
// unset; ac=videolist for records), the same fields read, paging by
// pagecount, and play lists split as MacCMS splits them ("$$$" between
// sources, "#" between episodes, "$" between name and address).

// collected is what the collector keeps of one record.
type collected struct {
	id, typeID                   string
	name, typeName, sub, pic     string
	area, year, actor, director  string
	content, time, from, playURL string
}

// collectPage holds Collect.php's page info and records of one answer.
type collectPage struct {
	page, pageCount, pageSize, recordCount string
	records                                []collected
	types                                  map[string]string // ac=list: type_id -> type_name
}

// collectURL builds the request as Collect.php does: cjurl, then
// http_build_query of ac, t, pg, h, ids, wd (ac other than list becomes
// videolist).
func collectURL(base, ac, t, pg, h, ids, wd string) string {
	if ac != "list" {
		ac = "videolist"
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	// http_build_query keeps the parameters in this order.
	parts := []string{"ac=" + url.QueryEscape(ac), "t=" + url.QueryEscape(t), "pg=" + url.QueryEscape(pg),
		"h=" + url.QueryEscape(h), "ids=" + url.QueryEscape(ids), "wd=" + url.QueryEscape(wd)}
	return base + sep + strings.Join(parts, "&")
}

func fetchBody(t testing.TB, target string) []byte {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, %v: %s", target, res.StatusCode, err, body)
	}
	return body
}

// collectJSON is vod_json: json_decode, page info from page, pagecount,
// limit, total; records as they are; class for ac=list.
func collectJSON(t testing.TB, target, ac string) collectPage {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(fetchBody(t, target), &doc); err != nil {
		t.Fatalf("json_decode failed: %v", err)
	}
	// PHP reads numbers and strings alike; print them as PHP would.
	php := func(v any) string {
		switch v := v.(type) {
		case nil:
			return ""
		case float64:
			return fmt.Sprint(int64(v))
		default:
			return fmt.Sprint(v)
		}
	}
	p := collectPage{page: php(doc["page"]), pageCount: php(doc["pagecount"]), pageSize: php(doc["limit"]), recordCount: php(doc["total"])}
	list, _ := doc["list"].([]any)
	for _, item := range list {
		v := item.(map[string]any)
		p.records = append(p.records, collected{
			id: php(v["vod_id"]), typeID: php(v["type_id"]), name: php(v["vod_name"]), typeName: php(v["type_name"]),
			sub: php(v["vod_sub"]), pic: php(v["vod_pic"]), area: php(v["vod_area"]), year: php(v["vod_year"]),
			actor: php(v["vod_actor"]), director: php(v["vod_director"]), content: php(v["vod_content"]),
			time: php(v["vod_time"]), from: php(v["vod_play_from"]), playURL: php(v["vod_play_url"]),
		})
	}
	if ac == "list" {
		p.types = map[string]string{}
		classes, _ := doc["class"].([]any)
		for _, c := range classes {
			c := c.(map[string]any)
			p.types[php(c["type_id"])] = php(c["type_name"])
		}
	}
	return p
}

// collectXML is vod_xml: simplexml_load_string, page info from the
// attributes of <list>, one record per <video>, play lists from
// <dl><dd flag>, else <dt>; <class><ty id> for ac=list.
func collectXML(t testing.TB, target, ac string) collectPage {
	t.Helper()
	var doc struct {
		List struct {
			Page        string `xml:"page,attr"`
			PageCount   string `xml:"pagecount,attr"`
			PageSize    string `xml:"pagesize,attr"`
			RecordCount string `xml:"recordcount,attr"`
			Videos      []struct {
				ID       string `xml:"id"`
				TID      string `xml:"tid"`
				Name     string `xml:"name"`
				Subname  string `xml:"subname"`
				Note     string `xml:"note"`
				Type     string `xml:"type"`
				Pic      string `xml:"pic"`
				Lang     string `xml:"lang"`
				Area     string `xml:"area"`
				Year     string `xml:"year"`
				State    string `xml:"state"`
				Actor    string `xml:"actor"`
				Director string `xml:"director"`
				Des      string `xml:"des"`
				Last     string `xml:"last"`
				DT       string `xml:"dt"`
				DL       struct {
					DD []struct {
						Flag string `xml:"flag,attr"`
						URL  string `xml:",chardata"`
					} `xml:"dd"`
				} `xml:"dl"`
			} `xml:"video"`
		} `xml:"list"`
		Class struct {
			Ty []struct {
				ID   string `xml:"id,attr"`
				Name string `xml:",chardata"`
			} `xml:"ty"`
		} `xml:"class"`
	}
	dec := xml.NewDecoder(strings.NewReader(string(fetchBody(t, target))))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("simplexml_load_string failed: %v", err)
	}
	p := collectPage{page: doc.List.Page, pageCount: doc.List.PageCount, pageSize: doc.List.PageSize, recordCount: doc.List.RecordCount}
	for _, v := range doc.List.Videos {
		c := collected{id: v.ID, typeID: v.TID, name: v.Name, typeName: v.Type, sub: v.Subname, pic: v.Pic, area: v.Area,
			year: v.Year, actor: v.Actor, director: v.Director, content: v.Des, time: v.Last}
		var from, urls []string
		if len(v.DL.DD) > 0 {
			for _, dd := range v.DL.DD {
				from = append(from, dd.Flag)
				urls = append(urls, vodXMLReplace(dd.URL))
			}
		} else {
			from, urls = []string{v.DT}, []string{""}
		}
		c.from, c.playURL = strings.Join(from, "$$$"), strings.Join(urls, "$$$")
		p.records = append(p.records, c)
	}
	if ac == "list" {
		p.types = map[string]string{}
		for _, ty := range doc.Class.Ty {
			p.types[ty.ID] = ty.Name
		}
	}
	return p
}

// vodXMLReplace is Collect.php's vod_xml_replace: "||" becomes "//",
// then each "#" episode keeps its name and its trimmed address.
func vodXMLReplace(s string) string {
	eps := strings.Split(strings.ReplaceAll(s, "||", "//"), "#")
	for i, ep := range eps {
		if name, addr, ok := strings.Cut(ep, "$"); ok {
			eps[i] = name + "$" + strings.TrimSpace(strings.SplitN(addr, "$", 2)[0])
		} else {
			eps[i] = strings.TrimSpace(ep)
		}
	}
	return strings.Join(eps, "#")
}

// episode is one entry of a play list, split as MacCMS's player does.
type episode struct{ from, name, url string }

func splitPlayList(from, urls string) []episode {
	var eps []episode
	sources := strings.Split(urls, "$$$")
	for i, f := range strings.Split(from, "$$$") {
		if i >= len(sources) || sources[i] == "" {
			continue
		}
		for _, ep := range strings.Split(sources[i], "#") {
			name, addr, _ := strings.Cut(ep, "$")
			eps = append(eps, episode{f, name, addr})
		}
	}
	return eps
}

// collectAll runs one collection as the MacCMS admin does: page 1, then
// every page up to pagecount.
func collectAll(t testing.TB, base, format, ac, tid, h string) (map[string]string, []collected) {
	t.Helper()
	collect := collectJSON
	if format == "xml" {
		collect = collectXML
	}
	var types map[string]string
	var all []collected
	for pg := 1; ; pg++ {
		p := collect(t, collectURL(base, ac, tid, fmt.Sprint(pg), h, "", ""), ac)
		if p.page != fmt.Sprint(pg) {
			t.Fatalf("page %d answered as page %q", pg, p.page)
		}
		if types == nil {
			types = p.types
		}
		all = append(all, p.records...)
		if fmt.Sprint(pg) == p.pageCount || p.pageCount == "0" {
			if p.recordCount != fmt.Sprint(len(all)) {
				t.Fatalf("recordcount %s, collected %d", p.recordCount, len(all))
			}
			return types, all
		}
		if pg > 1000 {
			t.Fatalf("pagecount never reached")
		}
	}
}

// collectorEpisodes are the play sources of the collector test's movie
// i: none for every fifth, a series on two servers for every sixth, a
// series with both link kinds for every third, else one embed link that
// holds the characters MacCMS splits on.
func collectorEpisodes(i int) []catalog.Server {
	switch {
	case i%5 == 0:
		return nil
	case i%3 == 0:
		var servers []catalog.Server
		for s := range 1 + boolInt(i%6 == 0) {
			srv := catalog.Server{Name: fmt.Sprintf("Server %d", s+1)}
			for e := 1; e <= 3; e++ {
				ep := catalog.Episode{Name: fmt.Sprintf("Ep %d #$", e), LinkM3U8: fmt.Sprintf("https://cdn.example/%d/%d/%d.m3u8", i, s, e)}
				if s == 0 {
					ep.LinkEmbed = fmt.Sprintf("https://player.example/e/%d/%d", i, e)
				}
				srv.Episodes = append(srv.Episodes, ep)
			}
			servers = append(servers, srv)
		}
		return servers
	}
	return catalog.ShorthandEpisodes(fmt.Sprintf("https://player.example/e/%d?x=$1&y=2#t=%d", i, i), "")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wantPlayList is the play list contract 9 gives servers, as a player
// splits it: per server its HLS links (group m3u8), then its embed links
// (group iframe), with "$" and "#" percent-encoded.
func wantPlayList(servers []catalog.Server) []episode {
	esc := strings.NewReplacer("$", "%24", "#", "%23").Replace
	var want []episode
	for _, s := range servers {
		for _, e := range s.Episodes {
			if e.LinkM3U8 != "" {
				want = append(want, episode{"m3u8", esc(e.Name), esc(e.LinkM3U8)})
			}
		}
		for _, e := range s.Episodes {
			if e.LinkEmbed != "" {
				want = append(want, episode{"iframe", esc(e.Name), esc(e.LinkEmbed)})
			}
		}
	}
	return want
}

func TestMacCMSCollector(t *testing.T) {
	store := movietest.Store(t)
	now := time.Now().UTC().Truncate(time.Second)
	var in []movietest.Movie
	cats := []string{"Drama", "ละคร", `Horror & "Gore"`, ""}
	for i := 1; i <= 45; i++ {
		m := movietest.Movie{Movie: catalog.Movie{ID: int64(i), Name: fmt.Sprintf("Movie <%d> & ]]> ภาพยนตร์", i),
			IDCode: fmt.Sprintf("ID-%d", i), Year: fmt.Sprint(1990 + i), Poster1URL: fmt.Sprintf("https://img.example/%d.jpg", i),
			Synopsis: fmt.Sprintf("Story %d\nline two", i), UpdatedAt: now.Add(-time.Duration(100+i) * time.Hour)}}
		m.Episodes = collectorEpisodes(i)
		if c := cats[i%len(cats)]; c != "" {
			m.Lists[0] = []string{c, "Extra"}
		}
		m.Lists[1] = []string{"Actor A", "Actor B"}
		m.Lists[5] = []string{"TH"}
		in = append(in, m)
	}
	movietest.Add(t, store, in...)
	srv := httptest.NewServer(movietest.Service(t, store, nil))
	defer srv.Close()
	byID := map[string]movietest.Movie{}
	for _, m := range in {
		byID[fmt.Sprint(m.ID)] = m
	}

	for _, base := range []string{srv.URL + "/api.php/provide/vod/", srv.URL + "/api.php/provide/vod/at/xml/", srv.URL + "/api.php/provide/vod/?at=xml"} {
		format := "json"
		if strings.Contains(base, "xml") {
			format = "xml"
		}
		t.Run(base[len(srv.URL):], func(t *testing.T) {
			// The categories first (ac=list), then every record.
			types, _ := collectAll(t, base, format, "list", "", "")
			wantTypes := map[string]bool{"Drama": true, "ละคร": true, `Horror & "Gore"`: true, "Extra": true}
			if len(types) != len(wantTypes) {
				t.Errorf("types: got %v, want %d names", types, len(wantTypes))
			}
			for _, name := range types {
				if !wantTypes[name] {
					t.Errorf("unexpected type %q", name)
				}
			}
			_, recs := collectAll(t, base, format, "videolist", "", "")
			if len(recs) != 45 {
				t.Fatalf("collected %d records, want 45", len(recs))
			}
			for i, r := range recs {
				src := byID[r.id]
				if want := fmt.Sprint(i + 1); r.id != want {
					t.Fatalf("record %d: id %s, want %s (last change first)", i, r.id, want)
				}
				wantType := ""
				if len(src.Lists[0]) > 0 {
					wantType = src.Lists[0][0]
				}
				if r.typeName != wantType || (wantType == "") != (r.typeID == "0") || types[r.typeID] != wantType && r.typeID != "0" {
					t.Errorf("record %s: type %s %q, want %q", r.id, r.typeID, r.typeName, wantType)
				}
				if r.name != src.Name || r.sub != src.IDCode || r.pic != src.Poster1URL || r.year != src.Year ||
					r.actor != "Actor A,Actor B" || r.area != "TH" || r.content != src.Synopsis ||
					r.time != src.UpdatedAt.Format("2006-01-02 15:04:05") {
					t.Errorf("record %s: got %+v, want the fields of %+v", r.id, r, src.Movie)
				}
				eps := splitPlayList(r.from, r.playURL)
				if len(src.Episodes) == 0 {
					if len(eps) != 0 || r.playURL != "" {
						t.Errorf("record %s without a link: play list %q %q", r.id, r.from, r.playURL)
					}
					continue
				}
				if want := wantPlayList(src.Episodes); !slices.Equal(eps, want) {
					t.Errorf("record %s: play list %+v, want %+v", r.id, eps, want)
				}
				for _, ep := range eps {
					if u, err := url.Parse(ep.url); err != nil || (u.Host != "player.example" && u.Host != "cdn.example") {
						t.Errorf("record %s: play address %q does not parse (%v)", r.id, ep.url, err)
					}
				}
			}

			// One category's records (t = its type id, as bound in the
			// collector's settings).
			var dramaID string
			for id, name := range types {
				if name == "Drama" {
					dramaID = id
				}
			}
			_, drama := collectAll(t, base, format, "videolist", dramaID, "")
			if len(drama) != 11 { // i%4 == 0 for i in 1..45
				t.Errorf("t=%s: collected %d, want 11", dramaID, len(drama))
			}
		})
	}

	// Incremental collection: h=24 finds only what changed in the last
	// day, in JSON and XML.
	changed := in[6]
	changed.Synopsis = "rewritten"
	changed.UpdatedAt = time.Time{}
	movietest.Add(t, store, changed)
	for _, base := range []string{srv.URL + "/api.php/provide/vod/", srv.URL + "/api.php/provide/vod/at/xml"} {
		format := map[bool]string{true: "xml", false: "json"}[strings.Contains(base, "xml")]
		_, recs := collectAll(t, base, format, "detail", "", "24")
		if len(recs) != 1 || recs[0].id != "7" || recs[0].content != "rewritten" {
			t.Errorf("%s h=24: got %+v, want movie 7 only", format, recs)
		}
	}
}
