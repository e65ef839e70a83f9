package movieapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"catalog/internal/apitest"
	"catalog/internal/movieapi"
)

func TestOpenAPIRoutes(t *testing.T) {
	store := newTestStore(t)
	h := newService(t, store, nil)
	apitest.CheckRoutes(t, apitest.Document(t, h), movieapi.RoutePatterns(store))
}

// TestOpenAPIDocument: the served document is valid OpenAPI 3.1 with the
// movie service's headers, and states the contract's limits (pinned here
// as the contract's numbers).
func TestOpenAPIDocument(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	r := get(t, h, "/api/openapi.json", http.StatusOK)
	checkHeader(t, r, "Access-Control-Allow-Origin", "*")
	checkHeader(t, r, "Cache-Control", "public, max-age=86400, stale-while-revalidate=600")
	checkHeader(t, r, "X-Content-Type-Options", "nosniff")
	checkHeader(t, r, "Content-Type", "application/json; charset=utf-8")
	get(t, h, "/api/openapi.json", http.StatusNotModified, "If-None-Match", r.header.Get("ETag"))
	if _, err := apitest.Load(r.body); err != nil {
		t.Fatal(err)
	}
	pre := do(t, h, http.MethodOptions, "/api/openapi.json")
	if pre.status != http.StatusNoContent {
		t.Errorf("OPTIONS: got %d, want 204", pre.status)
	}

	var d struct {
		OpenAPI    string
		Info       struct{ Version string }
		Components struct {
			Parameters map[string]struct {
				Description string
				Schema      map[string]any
			}
			Schemas map[string]struct {
				Properties map[string]any
			}
		}
	}
	if err := json.Unmarshal(r.body, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" || d.Info.Version != "test" {
		t.Errorf("got openapi %q version %q, want 3.1.0 and the service's version", d.OpenAPI, d.Info.Version)
	}
	p := d.Components.Parameters
	for _, tt := range []struct {
		param, key string
		want       float64
	}{
		{"limit", "default", 20}, {"limit", "x-clamped-to", 100},
		{"pagesize", "default", 20}, {"pagesize", "x-clamped-to", 100},
		{"ids", "x-max-items", 100}, {"h", "minimum", 1}, {"h", "maximum", 8760},
		{"q", "x-max-length-trimmed", 256}, {"q", "x-max-words", 16},
		{"wd", "x-max-length-trimmed", 256}, {"wd", "x-max-words", 16},
	} {
		if got := p[tt.param].Schema[tt.key]; got != tt.want {
			t.Errorf("parameter %s %s: got %v, want %v", tt.param, tt.key, got, tt.want)
		}
	}

	// The movie schemas name exactly the fields of contract 4.1.
	fields := []string{"id", "title", "slug", "year", "poster1_url", "poster2_url", "categories", "actor",
		"director", "studio", "genre", "country", "synopsis", "id_code", "release", "score", "douban_id", "hits", "hits_day", "hits_week", "hits_month", "episodes"}
	for schema, want := range map[string][]string{"Movie": fields, "JavMovie": append(slices.Clone(fields), "URL_player")} {
		var got []string
		for k := range d.Components.Schemas[schema].Properties {
			got = append(got, k)
		}
		slices.Sort(got)
		want = slices.Sorted(slices.Values(want))
		if !slices.Equal(got, want) {
			t.Errorf("%s properties: got %q, want %q", schema, got, want)
		}
	}
}

func TestDocsPage(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	apitest.CheckDocsPage(t, h)
	r := get(t, h, "/api/docs/nope.css", http.StatusNotFound)
	checkError(t, r, http.StatusNotFound, "no such file")
}

// TestOpenAPIMacCMS: the document describes the MacCMS API (contract 6)
// so that the helpers validate its answers once its routes land; until
// then, answers written from the contract by hand must pass and answers
// that break it must not.
func TestOpenAPIMacCMS(t *testing.T) {
	doc := apitest.Document(t, newService(t, newTestStore(t), nil))
	okHeaders := func(contentType string) http.Header {
		return http.Header{
			"Content-Type":                {contentType},
			"Etag":                        {`"abc-1"`},
			"Cache-Control":               {"public, max-age=86400, stale-while-revalidate=600"},
			"Access-Control-Allow-Origin": {"*"},
			"X-Content-Type-Options":      {"nosniff"},
		}
	}
	short := `{"vod_id": 7, "vod_name": "Rain", "type_id": 1, "type_name": "Drama", "vod_en": "rain",
		"vod_time": "2026-11-21 13:45:07", "vod_remarks": "Ep 2", "vod_play_from": "m3u8,iframe"}`
	full := `{"vod_id": 7, "vod_name": "Rain", "type_id": 1, "type_name": "Drama", "vod_en": "rain",
		"vod_time": "2026-11-21 13:45:07", "vod_remarks": "Ep 2", "vod_play_from": "m3u8$$$iframe",
		"vod_sub": "ABC-123", "vod_pic": "https://p.example/2.jpg", "vod_pic_slide": "https://p.example/1.jpg",
		"vod_actor": "A,B", "vod_director": "", "vod_area": "Thailand", "vod_class": "Drama",
		"vod_writer": "", "vod_lang": "", "vod_tag": "", "vod_year": "2019", "vod_pubdate": "2019-05-01",
		"vod_content": "Long text", "vod_blurb": "Long text", "vod_serial": "2", "vod_isend": 1,
		"vod_hits": 12, "vod_hits_day": 1, "vod_hits_week": 3, "vod_hits_month": 7,
		"vod_score": "8.5", "vod_douban_id": 1292052, "vod_douban_score": "8.5",
		"vod_play_server": "no$$$no", "vod_play_note": "Main$$$Main", "vod_play_url": "Ep 1$https://cdn.example/1.m3u8$$$Ep 1$https://player.example/e/1#Ep 2$https://player.example/e/2"}`
	page := func(list, extra string) string {
		return `{"code": 1, "msg": "数据列表", "page": 1, "pagecount": 1, "limit": 20, "total": 1, "list": [` + list + `]` + extra + `}`
	}
	filters := `"filters": {"1": [{"key": "class", "name": "Genre", "value": [{"n": "Drama", "v": "Drama"}]}, {"key": "year", "name": "Year", "value": [{"n": "2019", "v": "2019"}]}]}`
	class := `, "class": [{"type_id": 1, "type_pid": 0, "type_name": "Drama"}], ` + filters
	tests := []struct {
		name, target string
		status       int
		header       http.Header
		body         string
		ok           bool
	}{
		{"list", "/api.php/provide/vod/?ac=list", 200, okHeaders("application/json; charset=utf-8"), page(short, class), true},
		{"detail", "/api.php/provide/vod/?ac=detail&ids=7", 200, okHeaders("application/json; charset=utf-8"), page(full, ""), true},
		{"videolist at/json", "/api.php/provide/vod/at/json/?ac=videolist", 200, okHeaders("application/json; charset=utf-8"), page(full, ""), true},
		{"xml", "/api.php/provide/vod/at/xml?ac=list", 200, okHeaders("text/xml; charset=utf-8"),
			`<?xml version="1.0" encoding="utf-8"?><rss version="5.1"><list page="1" pagecount="0" pagesize="20" recordcount="0"></list></rss>`, true},
		{"other base path", "/api/provide/vod?ac=list", 200, okHeaders("application/json; charset=utf-8"), page(short, class), true},
		{"error", "/api.php/provide/vod?h=x", 400, http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Etag": {`"e"`},
			"Cache-Control": {"no-store"}, "Access-Control-Allow-Origin": {"*"}, "X-Content-Type-Options": {"nosniff"}}, `{"code": 0, "msg": "h must be ..."}`, true},
		{"old play group embed", "/api.php/provide/vod", 200, okHeaders("application/json"), page(strings.Replace(short, `"m3u8,iframe"`, `"embed"`, 1), class), false},
		{"list-mode play groups joined with $$$", "/api.php/provide/vod", 200, okHeaders("application/json"), page(strings.Replace(short, `"m3u8,iframe"`, `"m3u8$$$iframe"`, 1), class), false},
		{"vod_douban_id missing", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_douban_id": 1292052,`, ``, 1), ""), false},
		{"vod_douban_id as a string", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_douban_id": 1292052,`, `"vod_douban_id": "1292052",`, 1), ""), false},
		{"vod_score with two decimals", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_score": "8.5",`, `"vod_score": "8.55",`, 1), ""), false},
		{"vod_score as a number", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_score": "8.5",`, `"vod_score": 8.5,`, 1), ""), false},
		{"vod_douban_score missing", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `, "vod_douban_score": "8.5"`, ``, 1), ""), false},
		{"unknown member in a full record", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_douban_id": 1292052,`, `"vod_douban_id": 1292052, "vod_score_all": "9",`, 1), ""), false},
		{"vod_sub missing", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_sub": "ABC-123",`, ``, 1), ""), false},
		{"vod_actor as an array", "/api.php/provide/vod/?ac=detail", 200, okHeaders("application/json"), page(strings.Replace(full, `"vod_actor": "A,B"`, `"vod_actor": ["A","B"]`, 1), ""), false},
		{"path pairs", "/api.php/provide/vod/from/m3u8/ac/detail/", 200, okHeaders("application/json; charset=utf-8"), page(full, ""), true},
		{"vod_id as a string", "/api.php/provide/vod", 200, okHeaders("application/json"), page(strings.Replace(short, `"vod_id": 7`, `"vod_id": "7"`, 1), class), false},
		{"full records without class on ac=list mixed", "/api.php/provide/vod", 200, okHeaders("application/json"), page(full, class), false},
		{"limit as a string", "/api.php/provide/vod", 200, okHeaders("application/json"), strings.Replace(page(short, class), `"limit": 20`, `"limit": "20"`, 1), false},
		{"ac=list without filters", "/api.php/provide/vod", 200, okHeaders("application/json"), page(short, strings.TrimSuffix(class, `, `+filters)), false},
		{"a filter without values", "/api.php/provide/vod", 200, okHeaders("application/json"), page(short, strings.Replace(class, `[{"n": "2019", "v": "2019"}]`, `[]`, 1)), false},
		{"a filter of another key", "/api.php/provide/vod", 200, okHeaders("application/json"), page(short, strings.Replace(class, `"key": "year"`, `"key": "lang"`, 1)), false},
		{"filters of type 0", "/api.php/provide/vod", 200, okHeaders("application/json"), page(short, strings.Replace(class, `{"1": [`, `{"0": [`, 1)), false},
		{"no CORS header", "/api.php/provide/vod", 200, http.Header{"Content-Type": {"application/json"}, "Etag": {`"a"`}, "Cache-Control": {"public, max-age=86400, stale-while-revalidate=600"}, "X-Content-Type-Options": {"nosniff"}}, page(short, class), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems, err := apitest.Problems(doc, httptest.NewRequest(http.MethodGet, tt.target, nil), tt.status, tt.header, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.ok && len(problems) > 0 {
				t.Errorf("got problems, want none:\n%s", strings.Join(problems, "\n"))
			}
			if !tt.ok && len(problems) == 0 {
				t.Errorf("passed, want a problem")
			}
		})
	}
}

// TestOpenAPIPatterns: every "pattern" of the served document compiles
// as RE2, for the Go validators and generators that read it.
func TestOpenAPIPatterns(t *testing.T) {
	apitest.CheckPatterns(t, apitest.Document(t, newService(t, newTestStore(t), nil)))
}
