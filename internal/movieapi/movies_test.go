package movieapi_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// sunrise exercises every field: lists with spaces and empties, quotes
// and a newline in the synopsis, an empty poster.
var sunrise = movieInput{
	Movie: catalog.Movie{
		ID: 1, Name: "Sunrise", Year: "2019", Poster1URL: "https://img.example/1.jpg",
		Synopsis: "Line\n\"quoted\"", IDCode: "ABC-1", Release: "2019-05-01", Score: "8", DoubanID: "01292052",
		Episodes: catalog.ShorthandEpisodes("https://player.example/e/1", ""),
	},
	lists: [catalog.NumLists][]string{{"Drama", "Thai"}, {"A One", " A Two "}, nil, {"S"}, {}, {"TH"}},
}

const (
	sunriseModern = `{"id":1,"title":"Sunrise","slug":"sunrise","year":"2019","poster1_url":"https://img.example/1.jpg","poster2_url":"",` +
		`"categories":["Drama","Thai"],"actor":["A One","A Two"],"director":[],"studio":["S"],"genre":[],"country":["TH"],` +
		`"synopsis":"Line\n\"quoted\"","id_code":"ABC-1","release":"2019-05-01","score":"8.0","douban_id":"1292052","hits":"0","hits_day":"0","hits_week":"0","hits_month":"0",` +
		`"episodes":[{"server_name":"Main","status":"unchecked","checked_at":"","server_data":[{"name":"Full","slug":"full","link_embed":"https://player.example/e/1","link_m3u8":""}]}]}`
	sunriseLegacy = `{"id":1,"title":"Sunrise","slug":"sunrise","year":"2019","poster1_url":"https://img.example/1.jpg","poster2_url":"",` +
		`"categories":"Drama, Thai","actor":"A One, A Two","director":"","studio":"S","genre":"","country":"TH",` +
		`"synopsis":"Line\n\"quoted\"","id_code":"ABC-1","release":"2019-05-01","score":"8.0","douban_id":"1292052","hits":"0","hits_day":"0","hits_week":"0","hits_month":"0",` +
		`"episodes":[{"server_name":"Main","status":"unchecked","checked_at":"","server_data":[{"name":"Full","slug":"full","link_embed":"https://player.example/e/1","link_m3u8":""}]}],` +
		`"URL_player":{"server_data":{"link_embed":"https://player.example/e/1"}}}`
)

var allModernKeys = []string{"id", "title", "slug", "year", "poster1_url", "poster2_url",
	"categories", "actor", "director", "studio", "genre", "country", "synopsis", "id_code", "release", "score", "douban_id", "hits", "hits_day", "hits_week", "hits_month", "episodes"}

var allLegacyKeys = append(slices.Clone(allModernKeys), "URL_player")

func TestMovieForms(t *testing.T) {
	store := newTestStore(t)
	addMovies(t, store, sunrise)
	h := newService(t, store, nil)
	tests := []struct{ target, want string }{
		{"/api/movies/1", `{"code":1,"msg":"data detail","data":` + sunriseModern + `}`},
		{"/api/jav/1", `{"code":1,"msg":"data detail","data":` + sunriseLegacy + `}`},
		{"/api/movies", `{"code":1,"msg":"data list","page":1,"pagecount":1,"limit":"20","total":1,"list":[` + sunriseModern + `]}`},
		{"/api/jav", `{"code":1,"msg":"data list","page":1,"pagecount":1,"limit":"20","total":1,"list":[` + sunriseLegacy + `]}`},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			r := get(t, h, tt.target, http.StatusOK)
			if string(r.body) != tt.want {
				t.Errorf("got body\n%s\nwant\n%s", r.body, tt.want)
			}
		})
	}
}

func TestFields(t *testing.T) {
	store := newTestStore(t)
	addMovies(t, store, sunrise)
	h := newService(t, store, nil)
	tests := []struct {
		fields string
		modern []string // nil: 400
		legacy []string // nil: 400
	}{
		{"", allModernKeys, allLegacyKeys},
		{",", allModernKeys, allLegacyKeys},
		{" , ", allModernKeys, allLegacyKeys},
		{"title,id", []string{"id", "title"}, []string{"id", "title"}},
		{"name", []string{"title"}, []string{"title"}},
		{"name,title", []string{"title"}, []string{"title"}},
		{"id,id, id ", []string{"id"}, []string{"id"}},
		{" release , slug ,categories", []string{"slug", "categories", "release"}, []string{"slug", "categories", "release"}},
		{"URL_player,id", nil, []string{"id", "URL_player"}},
		{"country,actor,year,poster2_url,poster1_url,genre,director,studio,synopsis,id_code",
			[]string{"year", "poster1_url", "poster2_url", "actor", "director", "studio", "genre", "country", "synopsis", "id_code"},
			[]string{"year", "poster1_url", "poster2_url", "actor", "director", "studio", "genre", "country", "synopsis", "id_code"}},
		{"id,bogus", nil, nil},
		{"Title", nil, nil},
		{"link_embed", nil, nil},
	}
	for _, tt := range tests {
		for _, ep := range []struct {
			base string
			want []string
		}{{"/api/movies", tt.modern}, {"/api/jav", tt.legacy}} {
			q := "?fields=" + strings.ReplaceAll(tt.fields, " ", "%20")
			t.Run(ep.base+q, func(t *testing.T) {
				for _, target := range []string{ep.base + q, ep.base + "/1" + q} {
					r := do(t, h, http.MethodGet, target)
					if ep.want == nil {
						unknown := strings.TrimSpace(strings.Split(tt.fields, ",")[len(strings.Split(tt.fields, ","))-1])
						if tt.fields == "URL_player,id" {
							unknown = "URL_player"
						}
						checkError(t, r, http.StatusBadRequest, unknown)
						if !strings.Contains(string(r.body), "fields") {
							t.Errorf("%s: msg does not name the fields parameter: %s", target, r.body)
						}
						continue
					}
					if r.status != http.StatusOK {
						t.Fatalf("%s: got status %d, want 200: %s", target, r.status, r.body)
					}
					if strings.Contains(target, "/1?") {
						equalKeys(t, target, objectKeys(t, r.body, "data"), ep.want)
					} else {
						equalKeys(t, target, firstListItemKeys(t, r.body), ep.want)
					}
				}
			})
		}
	}
}

func TestListEnvelopeAndPaging(t *testing.T) {
	store := newTestStore(t)
	h := newService(t, store, nil)
	for _, target := range []string{"/api/movies", "/api/jav"} {
		r := get(t, h, target, http.StatusOK)
		if got, want := decodeListPage(t, r.body), (listPage{Code: 1, Msg: "data list", Page: 1, PageCount: 0, Limit: `"20"`, Total: 0, List: "[]"}); got != want {
			t.Errorf("%s on an empty catalog: got %+v, want %+v", target, got, want)
		}
	}

	addNumbered(t, store, 5)
	tests := []struct {
		target                 string
		page, pageCount, total int64
		limit                  string
		ids                    []int64
	}{
		{"/api/movies?fields=id&limit=2", 1, 3, 5, "2", []int64{5, 4}},
		{"/api/movies?fields=id&limit=2&page=3", 3, 3, 5, "2", []int64{1}},
		{"/api/movies?fields=id&limit=2&page=4", 4, 3, 5, "2", []int64{}},
		{"/api/movies?fields=id&limit=5", 1, 1, 5, "5", []int64{5, 4, 3, 2, 1}},
		{"/api/movies?fields=id&limit=500&page=1", 1, 1, 5, "100", []int64{5, 4, 3, 2, 1}},
		{"/api/movies?fields=id&limit=99999999999999999999999", 1, 1, 5, "100", []int64{5, 4, 3, 2, 1}},
		{"/api/jav?fields=id&limit=2&pg=2", 2, 3, 5, "2", []int64{3, 2}},
		{"/api/jav?fields=id&limit=2&page=3&pg=2", 3, 3, 5, "2", []int64{1}},
		{"/api/movies?fields=id&limit=2&pg=2&unknown=1", 1, 3, 5, "2", []int64{5, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			r := get(t, h, tt.target, http.StatusOK)
			got := decodeListPage(t, r.body)
			got.List = ""
			if want := (listPage{Code: 1, Msg: "data list", Page: tt.page, PageCount: tt.pageCount, Limit: jsonText(strconv.Quote(tt.limit)), Total: tt.total}); got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
			if ids := listIDs(t, r.body); !slices.Equal(ids, tt.ids) {
				t.Errorf("got ids %v, want %v", ids, tt.ids)
			}
		})
	}
}

func TestSearch(t *testing.T) {
	store := newTestStore(t)
	addMovies(t, store,
		movieInput{Movie: catalog.Movie{ID: 1, Name: "The Quiet Harbour"}},
		movieInput{Movie: catalog.Movie{ID: 2, Name: "ภาพยนตร์ ทะเล"}},
		movieInput{Movie: catalog.Movie{ID: 3, Name: "Quiet Café"}},
		movieInput{Movie: catalog.Movie{ID: 4, Name: "東京の夜"}},
	)
	h := newService(t, store, nil)
	tests := []struct {
		target string
		want   []int64
	}{
		{"/api/movies?q=quiet", []int64{3, 1}},
		{"/api/movies?q=QUIET+harb", []int64{1}},
		{"/api/movies?q=caf%C3%89", []int64{3}},
		{"/api/movies?q=%E0%B8%97%E0%B8%B0%E0%B9%80%E0%B8%A5", []int64{2}}, // ทะเล
		{"/api/movies?q=%E6%9D%B1%E4%BA%AC", []int64{4}},                   // 東京
		{"/api/movies?q=+++", []int64{4, 3, 2, 1}},
		{"/api/movies?q=nothing", []int64{}},
		{"/api/movies?wd=quiet", []int64{4, 3, 2, 1}}, // wd is legacy only
		{"/api/jav?wd=quiet", []int64{3, 1}},
		{"/api/jav?q=harbour&wd=caf%C3%A9", []int64{1}}, // q wins over wd
		{"/api/jav?q=&wd=caf%C3%A9", []int64{4, 3, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			r := get(t, h, tt.target+"&fields=id", http.StatusOK)
			if got := listIDs(t, r.body); !slices.Equal(got, tt.want) {
				t.Errorf("got ids %v, want %v", got, tt.want)
			}
		})
	}
}

func TestJavIDs(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 5)
	h := newService(t, store, nil)
	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = strconv.Itoa(i + 1)
	}
	tests := []struct {
		ids  string
		want []int64 // nil: 400
	}{
		{"2,4", []int64{4, 2}},
		{"4,2,4,2", []int64{4, 2}},
		{"%203%20,%201", []int64{3, 1}},
		{"99", []int64{}},
		{"", []int64{5, 4, 3, 2, 1}},
		{strings.Join(hundred, ","), []int64{5, 4, 3, 2, 1}},
		{strings.Join(hundred, ",") + ",101", nil},
		{"1,a", nil},
		{"1,,2", nil},
		{"1,2,", nil},
		{"0", nil},
		{"-1", nil},
		{"1.5", nil},
		{"99999999999999999999", nil},
	}
	for _, tt := range tests {
		name := tt.ids
		if len(name) > 20 {
			name = name[:20] + "..." + strconv.Itoa(strings.Count(tt.ids, ",")+1)
		}
		t.Run(name, func(t *testing.T) {
			target := "/api/jav?fields=id&limit=100&ids=" + tt.ids
			r := do(t, h, http.MethodGet, target)
			if tt.want == nil {
				checkError(t, r, http.StatusBadRequest, "ids")
				return
			}
			if r.status != http.StatusOK {
				t.Fatalf("got status %d, want 200: %s", r.status, r.body)
			}
			if got := listIDs(t, r.body); !slices.Equal(got, tt.want) {
				t.Errorf("got ids %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("ids are ignored on /api/movies", func(t *testing.T) {
		r := get(t, h, "/api/movies?fields=id&ids=bad", http.StatusOK)
		if got := listIDs(t, r.body); len(got) != 5 {
			t.Errorf("got ids %v, want all 5", got)
		}
	})
}

func TestJavHours(t *testing.T) {
	store := newTestStore(t)
	now := time.Now()
	addMovies(t, store,
		movieInput{Movie: catalog.Movie{ID: 1, Name: "Old", UpdatedAt: now.Add(-72 * time.Hour)}},
		movieInput{Movie: catalog.Movie{ID: 2, Name: "Ancient", UpdatedAt: now.Add(-400 * 24 * time.Hour)}},
		movieInput{Movie: catalog.Movie{ID: 3, Name: "Recent", UpdatedAt: now.Add(-10 * time.Minute)}},
	)
	h := newService(t, store, nil)
	tests := []struct {
		h    string
		want []int64 // nil: 400
	}{
		{"1", []int64{3}},
		{"71", []int64{3}},
		{"73", []int64{3, 1}},
		{"8760", []int64{3, 1}},
		{"0", nil},
		{"8761", nil},
		{"abc", nil},
		{"", nil},
		{"-1", nil},
		{"1.5", nil},
	}
	for _, tt := range tests {
		t.Run("h="+tt.h, func(t *testing.T) {
			r := do(t, h, http.MethodGet, "/api/jav?fields=id&h="+tt.h)
			if tt.want == nil {
				checkError(t, r, http.StatusBadRequest, "h ")
				return
			}
			if r.status != http.StatusOK {
				t.Fatalf("got status %d, want 200: %s", r.status, r.body)
			}
			if got := listIDs(t, r.body); !slices.Equal(got, tt.want) {
				t.Errorf("got ids %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("h combines with ids", func(t *testing.T) {
		r := get(t, h, "/api/jav?fields=id&h=100&ids=1,2", http.StatusOK)
		if got := listIDs(t, r.body); !slices.Equal(got, []int64{1}) {
			t.Errorf("got ids %v, want [1]", got)
		}
	})
}

func TestErrors(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 1)
	h := newService(t, store, nil)
	tests := []struct {
		method, target string
		status         int
		msg            string
	}{
		{"GET", "/api/movies?page=abc", 400, "page"},
		{"GET", "/api/movies?page=0", 400, "page"},
		{"GET", "/api/movies?page=-1", 400, "page"},
		{"GET", "/api/movies?page=1.5", 400, "page"},
		{"GET", "/api/movies?page=", 400, "page"},
		{"GET", "/api/movies?limit=abc", 400, "limit"},
		{"GET", "/api/movies?limit=0", 400, "limit"},
		{"GET", "/api/movies?limit=", 400, "limit"},
		{"GET", "/api/jav?pg=x", 400, "pg"},
		{"GET", "/api/jav?limit=-5", 400, "limit"},
		{"GET", "/api/movies?fields=nope", 400, "nope"},
		{"GET", "/api/movies/abc", 400, "id"},
		{"GET", "/api/movies/0", 400, "id"},
		{"GET", "/api/movies/-3", 400, "id"},
		{"GET", "/api/movies/1.0", 400, "id"},
		{"GET", "/api/movies/99999999999999999999", 400, "id"},
		{"GET", "/api/jav/abc", 400, "id"},
		{"GET", "/api/jav/9223372036854775808", 400, "id"},
		{"GET", "/api/movies/2", 404, "movie not found"},
		{"GET", "/api/jav/9223372036854775807", 404, "movie not found"},
		{"GET", "/api/movies/2?fields=id", 404, "movie not found"},
		{"GET", "/api/nothing", 404, ""},
		{"GET", "/", 404, ""},
		{"GET", "/api/movies/1/extra", 404, ""},
		{"POST", "/api/movies", 405, ""},
		{"DELETE", "/api/movies/1", 405, ""},
		{"PUT", "/api/jav", 405, ""},
		{"POST", "/api/jav/1", 405, ""},
		{"POST", "/api/movies/snapshot", 405, ""},
		{"POST", "/api/health", 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			r := do(t, h, tt.method, tt.target)
			checkError(t, r, tt.status, tt.msg)
			if tt.status == 405 {
				checkHeader(t, r, "Allow", "GET, HEAD, OPTIONS")
			}
			if tt.status == 404 && tt.msg == "" && bytes.Contains(r.body, []byte("movie not found")) {
				t.Errorf("unknown path answered like a missing movie: %s", r.body)
			}
		})
	}
}

func TestSuccessHeaders(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 30)
	h := newService(t, store, nil)
	for _, target := range []string{"/api/movies", "/api/movies/3", "/api/jav", "/api/jav/3", "/api/health"} {
		t.Run(target, func(t *testing.T) {
			wantCache := "public, max-age=86400, stale-while-revalidate=600"
			if target == "/api/health" {
				wantCache = "no-store" // contract 3.4
			}
			r := get(t, h, target, http.StatusOK)
			checkHeader(t, r, "Access-Control-Allow-Origin", "*")
			checkHeader(t, r, "Cache-Control", wantCache)
			checkHeader(t, r, "Content-Type", "application/json; charset=utf-8")
			checkHeader(t, r, "X-Content-Type-Options", "nosniff")
			tag := r.header.Get("ETag")
			if !strings.HasPrefix(tag, `"`) {
				t.Fatalf("got ETag %q, want a strong tag", tag)
			}

			nm := do(t, h, http.MethodGet, target, "If-None-Match", tag)
			if nm.status != http.StatusNotModified || len(nm.body) != 0 {
				t.Errorf("If-None-Match: got %d with %d bytes, want 304 without body", nm.status, len(nm.body))
			}
			checkHeader(t, nm, "Access-Control-Allow-Origin", "*")
			checkHeader(t, nm, "Cache-Control", wantCache)

			other := get(t, h, target, http.StatusOK, "If-None-Match", `"other"`)
			if !bytes.Equal(other.body, r.body) {
				t.Errorf("non-matching If-None-Match changed the body")
			}

			head := do(t, h, http.MethodHead, target)
			if head.status != http.StatusOK || len(head.body) != 0 {
				t.Errorf("HEAD: got %d with %d bytes, want 200 without body", head.status, len(head.body))
			}
			checkHeader(t, head, "Cache-Control", wantCache)
		})
	}

	t.Run("gzip", func(t *testing.T) {
		plain := get(t, h, "/api/movies", http.StatusOK)
		if len(plain.body) <= 1024 {
			t.Fatalf("list too small to test gzip: %d bytes", len(plain.body))
		}
		gz := get(t, h, "/api/movies", http.StatusOK, "Accept-Encoding", "gzip")
		checkHeader(t, gz, "Content-Encoding", "gzip")
		checkHeader(t, gz, "Access-Control-Allow-Origin", "*")
		zr, err := gzip.NewReader(bytes.NewReader(gz.body))
		if err != nil {
			t.Fatalf("gzip body: %v", err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unzipped, plain.body) {
			t.Errorf("gzip body does not decompress to the plain body (%v)", err)
		}
		if gz.header.Get("ETag") == plain.header.Get("ETag") {
			t.Errorf("gzip and plain bodies share the ETag %s", gz.header.Get("ETag"))
		}
	})
}

func TestPreflight(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	for _, path := range []string{"/api/movies", "/api/movies/1", "/api/movies/snapshot", "/api/jav", "/api/jav/1", "/api/health"} {
		t.Run(path, func(t *testing.T) {
			r := do(t, h, http.MethodOptions, path,
				"Origin", "https://example.org",
				"Access-Control-Request-Method", "GET",
				"Access-Control-Request-Headers", "if-none-match, x-requested-with")
			if r.status != http.StatusNoContent || len(r.body) != 0 {
				t.Fatalf("got %d with %q, want 204 without body", r.status, r.body)
			}
			checkHeader(t, r, "Access-Control-Allow-Origin", "*")
			checkHeader(t, r, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			checkHeader(t, r, "Access-Control-Allow-Headers", "if-none-match, x-requested-with")
			checkHeader(t, r, "Access-Control-Max-Age", "86400")
			if r.header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("preflight allows credentials")
			}
		})
	}
	t.Run("no requested headers", func(t *testing.T) {
		r := do(t, h, http.MethodOptions, "/api/movies", "Access-Control-Request-Method", "GET")
		if r.status != http.StatusNoContent {
			t.Fatalf("got %d, want 204", r.status)
		}
		if r.header.Get("Access-Control-Allow-Headers") == "" {
			t.Errorf("no Access-Control-Allow-Headers")
		}
	})
	t.Run("injection attempt is not echoed", func(t *testing.T) {
		r := do(t, h, http.MethodOptions, "/api/movies", "Access-Control-Request-Headers", "x-a; evil=1")
		if strings.Contains(r.header.Get("Access-Control-Allow-Headers"), "evil") {
			t.Errorf("echoed %q", r.header.Get("Access-Control-Allow-Headers"))
		}
	})
}

func TestHealth(t *testing.T) {
	h := newService(t, newTestStore(t), nil)
	r := get(t, h, "/api/health", http.StatusOK)
	if got, want := decodeHealth(t, r.body), (healthBody{Status: "ok", Version: "test", Database: "ok", Search: "ready"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// Contract 3.4: not the day-long cache of the other movie GETs.
	checkHeader(t, r, "Cache-Control", "no-store")
	checkHeader(t, r, "Access-Control-Allow-Origin", "*")
}

func TestLargePageIsNot500(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 2)
	h := newService(t, store, nil)
	r := get(t, h, fmt.Sprintf("/api/movies?fields=id&limit=100&page=%d", int64(1)<<40), http.StatusOK)
	if got := listIDs(t, r.body); len(got) != 0 {
		t.Errorf("got ids %v, want none", got)
	}
}

// Contract 2: unknown query parameters are ignored, so the answer is the
// same byte for byte as without them.
func TestUnknownQueryParametersIgnored(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	h := newService(t, store, nil)
	for _, path := range []string{"/api/movies?limit=2", "/api/movies/1?fields=id", "/api/jav?pg=1", "/api/jav/2?"} {
		plain := get(t, h, path, http.StatusOK)
		extra := get(t, h, path+"&order=name&callback=x&foo", http.StatusOK)
		if string(extra.body) != string(plain.body) {
			t.Errorf("%s with unknown parameters: got %s, want %s", path, extra.body, plain.body)
		}
	}
}

// Contract 2: a page past the last one is a 200 with an empty list and
// the true total, however far past (up to what int64 holds).
func TestPageFarPastTheEnd(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	h := newService(t, store, nil)
	for _, path := range []string{"/api/movies?fields=id&page=", "/api/jav?fields=id&pg=", "/api/movies?q=movie&fields=id&page="} {
		r := get(t, h, path+"9223372036854775807", http.StatusOK)
		if !strings.Contains(string(r.body), `"page":9223372036854775807,"pagecount":1,"limit":"20","total":3,"list":[]}`) {
			t.Errorf("%s: got %s", path, r.body)
		}
	}
}

// A malformed query string (a raw ";" would drop ids silently) is a 400
// in the movie shape, with the service's headers.
func TestMalformedQuery(t *testing.T) {
	store := newTestStore(t)
	addNumbered(t, store, 3)
	h := newService(t, store, nil)
	r := do(t, h, http.MethodGet, "/api/jav?ids=1;2")
	if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), `"code":0`) || !strings.Contains(string(r.body), "malformed query string") {
		t.Errorf("got %d %s, want 400 in the movie error shape", r.status, r.body)
	}
	checkHeader(t, r, "Access-Control-Allow-Origin", "*")
	checkHeader(t, r, "Cache-Control", "no-store")
}

// A detail names "movies" and its movie's key in both forms; a
// malformed id names only "movies", and never the raw path text.
func TestDetailSurrogateKeys(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 3)
	h := newService(t, store, nil)
	for _, tt := range []struct {
		target string
		status int
		want   string
	}{
		{"/api/movies/2", http.StatusOK, "movies movie-2"},
		{"/api/jav/3", http.StatusOK, "movies movie-3"},
		{"/api/movies/9", http.StatusNotFound, "movies movie-9"},
		{"/api/movies/x1", http.StatusBadRequest, "movies"},
		{"/api/movies", http.StatusOK, "movies"},
	} {
		r := get(t, h, tt.target, tt.status)
		if got := r.header.Get("Surrogate-Key"); got != tt.want {
			t.Errorf("%s: Surrogate-Key %q, want %q", tt.target, got, tt.want)
		}
	}
}
