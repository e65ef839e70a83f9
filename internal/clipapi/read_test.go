package clipapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/cli"
)

func TestHealth(t *testing.T) {
	e := newEnv(t)
	w := e.get("/api/health")
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	body := decode(t, w.Body.Bytes())
	for k, want := range map[string]string{"status": "ok", "version": "test-1", "database": "ok", "search": "ready"} {
		if body[k] != want {
			t.Errorf("%s: got %v, want %q", k, body[k], want)
		}
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control: got %q, want no-store", got)
	}

	e.store.Close()
	w = e.get("/api/health")
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("closed store: got status %d, want 503", w.Code)
	}
	body = decode(t, w.Body.Bytes())
	if body["status"] != "unavailable" || body["database"] != "error" {
		t.Errorf("closed store: got %v", body)
	}
}

// The clip JSON golden (contract 3.1): one clip with every member set,
// as its detail and as a list page. The other clip tests decode the
// members they are about.
func TestClipJSONForms(t *testing.T) {
	e := newEnv(t)
	c := e.addClip(catalog.Clip{Title: `Sunset "over" the bay`, IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
		CoverURL: "https://img.example/c.jpg?a=1&b=2", Actor: "A One", Studio: "S", Platform: "JAV", Notes: "line\nline"})
	clip := fmt.Sprintf(`{"id":%d,"title":"Sunset \"over\" the bay","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ",`+
		`"cover_url":"https://img.example/c.jpg?a=1&b=2","actor":"A One","studio":"S","platform":"JAV","notes":"line\nline",`+
		`"created_at":"%s"}`, c.ID, c.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"))
	for target, want := range map[string]string{
		fmt.Sprintf("/api/clips/%d", c.ID): `{"data":` + clip + `}`,
		"/api/clips":                       `{"meta":{"page":1,"limit":20,"total":1},"data":[` + clip + `]}`,
	} {
		if w := e.get(target); w.Code != http.StatusOK || w.Body.String() != want {
			t.Errorf("%s: got %d\n%s\nwant\n%s", target, w.Code, w.Body, want)
		}
	}
}

func TestListPaging(t *testing.T) {
	e := newEnv(t)
	for i := range 25 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i)})
	}
	tests := []struct {
		query               string
		wantPage, wantLimit int64
		wantLen             int
	}{
		{"", 1, 20, 20},
		{"?page=2", 2, 20, 5},
		{"?limit=5&page=3", 3, 5, 5},
		{"?limit=100", 1, 100, 25},
		{"?limit=101", 1, 100, 25},
		{"?limit=99999999999999999999999", 1, 100, 25},
		{"?page=99", 99, 20, 0},
		{"?unknown=1&limit=1", 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			l := decodeList(t, e.get("/api/clips"+tt.query))
			if l.Meta.Page != tt.wantPage || l.Meta.Limit != tt.wantLimit || l.Meta.Total != 25 {
				t.Errorf("meta: got %+v, want page %d limit %d total 25", l.Meta, tt.wantPage, tt.wantLimit)
			}
			if len(l.Data) != tt.wantLen {
				t.Errorf("got %d clips, want %d", len(l.Data), tt.wantLen)
			}
		})
	}
	for _, param := range []string{"page", "limit"} {
		for _, bad := range []string{"abc", "0", "-1", "1.5", "", "+1", "1e2", "%201"} {
			t.Run(param+"="+bad, func(t *testing.T) {
				eb := wantError(t, e.get("/api/clips?"+param+"="+bad), http.StatusBadRequest)
				if !strings.Contains(eb.Error.Message, param) {
					t.Errorf("message %q does not name %s", eb.Error.Message, param)
				}
			})
		}
	}
}

func TestListOrderNewestFirst(t *testing.T) {
	e := newEnv(t)
	var ids []int64
	for i := range 5 {
		ids = append(ids, e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i)}).ID)
	}
	l := decodeList(t, e.get("/api/clips"))
	var got []int64
	for _, c := range l.Data {
		got = append(got, c.ID)
	}
	slices.Reverse(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("got ids %v, want %v", got, ids)
	}
}

func TestListSearch(t *testing.T) {
	e := newEnv(t)
	titles := []string{"Sunset over the bay", "SUNSET beach", "ทะเลสวย ยามเย็น", "Café crème", "東京の夜"}
	for _, title := range titles {
		e.addClip(catalog.Clip{Title: title})
	}
	tests := []struct {
		q    string
		want []string
	}{
		{"sunset", []string{"SUNSET beach", "Sunset over the bay"}},
		{"SUNSET", []string{"SUNSET beach", "Sunset over the bay"}},
		{"sunset bay", []string{"Sunset over the bay"}},
		{"bay sunset", []string{"Sunset over the bay"}},
		{"sunset nothing", nil},
		{"nse", []string{"SUNSET beach", "Sunset over the bay"}},
		{"ทะเล", []string{"ทะเลสวย ยามเย็น"}},
		{"ยามเย็น ทะเล", []string{"ทะเลสวย ยามเย็น"}},
		{"CAFÉ", []string{"Café crème"}},
		{"東京", []string{"東京の夜"}},
		{"   ", []string{"東京の夜", "Café crème", "ทะเลสวย ยามเย็น", "SUNSET beach", "Sunset over the bay"}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			l := decodeList(t, e.get("/api/clips?q="+urlQuery(tt.q)))
			var got []string
			for _, c := range l.Data {
				got = append(got, c.Title)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if l.Meta.Total != int64(len(tt.want)) {
				t.Errorf("total: got %d, want %d", l.Meta.Total, len(tt.want))
			}
		})
	}
}

func urlQuery(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(urlEscape(s), "+", "%2B"), " ", "%20")
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 0x80 || c == ' ' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func TestListPlatform(t *testing.T) {
	e := newEnv(t)
	e.addClip(catalog.Clip{Title: "a", Platform: "JAV"})
	e.addClip(catalog.Clip{Title: "b", Platform: "JAVJAV"})
	e.addClip(catalog.Clip{Title: "c", Platform: "ทวิต"})
	e.addClip(catalog.Clip{Title: "d"})
	tests := []struct {
		platform string
		want     []string
	}{
		{"JAV", []string{"a"}},
		{"JAVJAV", []string{"b"}},
		{"ทวิต", []string{"c"}},
		{"", []string{"d", "c", "b", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.platform, func(t *testing.T) {
			l := decodeList(t, e.get("/api/clips?platform="+urlEscape(tt.platform)))
			var got []string
			for _, c := range l.Data {
				got = append(got, c.Title)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"jav", "Nope", "JAV%20"} {
		t.Run("bad "+bad, func(t *testing.T) {
			eb := wantError(t, e.get("/api/clips?platform="+bad), http.StatusBadRequest)
			for _, p := range catalog.DefaultPlatforms() {
				if !strings.Contains(eb.Error.Message, p) {
					t.Errorf("message %q does not list %q", eb.Error.Message, p)
				}
			}
		})
	}
}

var rfc3339UTC = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// TestEnvelopes checks the list and detail envelopes key by key.
func TestEnvelopes(t *testing.T) {
	e := newEnv(t)
	c := e.addClip(catalog.Clip{Title: "Sunset", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", Platform: "JAV"})
	clipKeys := []string{"actor", "cover_url", "created_at", "id", "iframe_url", "notes", "platform", "studio", "title"}

	checkClip := func(t *testing.T, v any) {
		t.Helper()
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("clip is %T, want object", v)
		}
		got := keys(m)
		slices.Sort(got)
		if !slices.Equal(got, clipKeys) {
			t.Errorf("clip keys: got %v, want %v", got, clipKeys)
		}
		if id, ok := m["id"].(json.Number); !ok || id.String() != fmt.Sprint(c.ID) {
			t.Errorf("id: got %#v, want number %d", m["id"], c.ID)
		}
		for _, k := range []string{"actor", "studio", "notes", "cover_url"} {
			if _, ok := m[k].(string); !ok {
				t.Errorf("%s: got %#v, want a string", k, m[k])
			}
		}
		if s, _ := m["created_at"].(string); !rfc3339UTC.MatchString(s) {
			t.Errorf("created_at: got %#v, want RFC 3339 UTC with seconds", m["created_at"])
		}
		if m["title"] != "Sunset" || m["platform"] != "JAV" {
			t.Errorf("got title %v platform %v", m["title"], m["platform"])
		}
	}

	t.Run("list", func(t *testing.T) {
		body := decode(t, e.get("/api/clips").Body.Bytes())
		if got := keys(body); len(got) != 2 || body["meta"] == nil || body["data"] == nil {
			t.Fatalf("list keys: got %v, want meta and data", got)
		}
		meta := body["meta"].(map[string]any)
		want := map[string]string{"page": "1", "limit": "20", "total": "1"}
		if len(meta) != len(want) {
			t.Errorf("meta: got %v, want %v", meta, want)
		}
		for k, v := range want {
			if n, ok := meta[k].(json.Number); !ok || n.String() != v {
				t.Errorf("meta.%s: got %#v, want number %s", k, meta[k], v)
			}
		}
		data := body["data"].([]any)
		if len(data) != 1 {
			t.Fatalf("data: got %d clips, want 1", len(data))
		}
		checkClip(t, data[0])
	})
	t.Run("empty list", func(t *testing.T) {
		w := e.get("/api/clips?q=nothing-matches")
		if !strings.Contains(w.Body.String(), `"data":[]`) {
			t.Errorf("empty list: got %s, want data []", w.Body)
		}
	})
	t.Run("detail", func(t *testing.T) {
		w := e.get(fmt.Sprintf("/api/clips/%d", c.ID))
		if w.Code != http.StatusOK {
			t.Fatalf("got status %d, want 200", w.Code)
		}
		body := decode(t, w.Body.Bytes())
		if len(body) != 1 {
			t.Errorf("detail keys: got %v, want only data", keys(body))
		}
		checkClip(t, body["data"])
	})
}

func TestGetClipIDs(t *testing.T) {
	e := newEnv(t)
	c := e.addClip(catalog.Clip{Title: "one"})
	tests := []struct {
		id     string
		status int
	}{
		{fmt.Sprint(c.ID), http.StatusOK},
		{"abc", http.StatusBadRequest},
		{"0", http.StatusBadRequest},
		{"-1", http.StatusBadRequest},
		{"1.5", http.StatusBadRequest},
		{"+1", http.StatusBadRequest},
		{"99999999999999999999", http.StatusBadRequest},
		{"9223372036854775808", http.StatusBadRequest},
		{"9223372036854775807", http.StatusNotFound},
		{fmt.Sprint(c.ID + 1), http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			w := e.get("/api/clips/" + tt.id)
			if tt.status == http.StatusOK {
				if w.Code != http.StatusOK {
					t.Fatalf("got status %d, want 200", w.Code)
				}
				if got := decodeClip(t, w); got.ID != c.ID || got.Title != "one" {
					t.Errorf("got %+v", got)
				}
				return
			}
			wantError(t, w, tt.status)
		})
	}
}

func TestPlatforms(t *testing.T) {
	p, err := catalog.NewPlatforms([]string{"ทวิต", "Zeta", "JAV", "Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(c *cli.ServiceDeps) { c.Platforms = p })
	w := e.get("/api/platforms")
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	if got, want := w.Body.String(), `{"data":["ทวิต","Zeta","JAV","Alpha"]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// The configured enumeration is the one the filter checks.
	wantError(t, e.get("/api/clips?platform=JAVJAV"), http.StatusBadRequest)
	decodeList(t, e.get("/api/clips?platform=Zeta"))

	t.Run("default", func(t *testing.T) {
		var got struct{ Data []string }
		if err := json.Unmarshal(newEnv(t).get("/api/platforms").Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if want := []string{"JAV", "JAVJAV", "JAVJAVJAV", "คลิปหลุด", "ทวิต"}; !slices.Equal(got.Data, want) {
			t.Errorf("got %q, want %q", got.Data, want)
		}
	})
}

func TestReadHeaders(t *testing.T) {
	e := newEnv(t)
	c := e.addClip(catalog.Clip{Title: "x"})
	for _, path := range []string{"/api/clips", fmt.Sprintf("/api/clips/%d", c.ID), "/api/platforms", "/api/health"} {
		t.Run(path, func(t *testing.T) {
			w := e.do(request{target: path, headers: map[string]string{"Origin": "https://elsewhere.example"}})
			h := w.Header()
			want := map[string]string{
				"Access-Control-Allow-Origin": "*",
				"Cache-Control":               "public, max-age=60",
				"X-Content-Type-Options":      "nosniff",
				"Content-Type":                "application/json; charset=utf-8",
			}
			if path == "/api/health" {
				want["Cache-Control"] = "no-store" // contract 3.4: an edge must not keep a stale "ok"
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s: got %q, want %q", k, got, v)
				}
			}
			if got := h.Get("Access-Control-Allow-Credentials"); got != "" {
				t.Errorf("Access-Control-Allow-Credentials: got %q, want none", got)
			}
			if tag := h.Get("ETag"); !strings.HasPrefix(tag, `"`) {
				t.Errorf("ETag: got %q, want a strong tag", tag)
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		w := e.get("/api/clips/999999")
		wantError(t, w, http.StatusNotFound)
		if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("nosniff on error: got %q", got)
		}
	})
}

func TestETag(t *testing.T) {
	e := newEnv(t)
	c := e.addClip(catalog.Clip{Title: "x"})
	for _, path := range []string{"/api/clips", fmt.Sprintf("/api/clips/%d", c.ID), "/api/platforms", "/api/health"} {
		t.Run(path, func(t *testing.T) {
			w := e.get(path)
			tag := w.Header().Get("ETag")
			if tag == "" || strings.HasPrefix(tag, "W/") {
				t.Fatalf("ETag: got %q, want a strong tag", tag)
			}
			w = e.do(request{target: path, headers: map[string]string{"If-None-Match": tag}})
			if w.Code != http.StatusNotModified {
				t.Fatalf("If-None-Match: got status %d, want 304", w.Code)
			}
			if w.Body.Len() != 0 {
				t.Errorf("304 body: got %q, want empty", w.Body)
			}
			w = e.do(request{target: path, headers: map[string]string{"If-None-Match": `"other"`}})
			if w.Code != http.StatusOK {
				t.Errorf("other tag: got status %d, want 200", w.Code)
			}
		})
	}
	t.Run("changes with the data", func(t *testing.T) {
		before := e.get("/api/clips").Header().Get("ETag")
		e.addClip(catalog.Clip{Title: "y"})
		after := e.get("/api/clips").Header().Get("ETag")
		if before == after {
			t.Errorf("ETag %q did not change after a new clip", before)
		}
	})
}

func TestGzip(t *testing.T) {
	e := newEnv(t)
	for i := range 20 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("a long enough title for clip number %d", i), Notes: strings.Repeat("n", 40)})
	}
	gz := map[string]string{"Accept-Encoding": "gzip"}

	w := e.do(request{target: "/api/clips", headers: gz})
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("large list: got Content-Encoding %q, want gzip", w.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) <= 1024 {
		t.Fatalf("test data too small: %d bytes", len(plain))
	}
	var l listJSON
	if err := json.Unmarshal(plain, &l); err != nil || len(l.Data) != 20 {
		t.Errorf("gunzipped body: err %v, %d clips", err, len(l.Data))
	}
	if !strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary: got %q, want Accept-Encoding", w.Header().Get("Vary"))
	}

	w = e.do(request{target: "/api/clips"})
	if w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), plain) {
		t.Errorf("without Accept-Encoding: got encoding %q, body differs %v", w.Header().Get("Content-Encoding"), !bytes.Equal(w.Body.Bytes(), plain))
	}

	for _, path := range []string{"/api/clips?limit=1", "/api/platforms"} {
		w := e.do(request{target: path, headers: gz})
		if w.Body.Len() > 1024 {
			t.Fatalf("%s: test body too large: %d", path, w.Body.Len())
		}
		if got := w.Header().Get("Content-Encoding"); got != "" {
			t.Errorf("%s (%d bytes): got Content-Encoding %q, want none", path, w.Body.Len(), got)
		}
	}
}

func TestUnknownPathAndMethod(t *testing.T) {
	e := newEnv(t)
	// "/" is the public catalog page (internal/web), so it is not listed.
	for _, path := range []string{"/nope", "/api", "/api/clip", "/api/clips/1/extra", "/admin/nope", "/static/nope.css"} {
		t.Run("404 "+path, func(t *testing.T) {
			wantError(t, e.get(path), http.StatusNotFound)
		})
	}
	tests := []struct {
		method, path, allow string
	}{
		{"PUT", "/api/clips", "GET, HEAD, POST"},
		{"DELETE", "/api/clips", "GET, HEAD, POST"},
		{"POST", "/api/clips/1", "DELETE, GET, HEAD, PATCH"},
		{"POST", "/api/platforms", "GET, HEAD"},
		{"POST", "/api/health", "GET, HEAD"},
		{"DELETE", "/admin/login", "GET, HEAD, POST"},
		{"GET", "/admin/logout", "POST"},
	}
	for _, tt := range tests {
		t.Run("405 "+tt.method+" "+tt.path, func(t *testing.T) {
			w := e.do(request{method: tt.method, target: tt.path})
			wantError(t, w, http.StatusMethodNotAllowed)
			if got := w.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow: got %q, want %q", got, tt.allow)
			}
		})
	}
}

// TestInternalErrorIsSafe checks that a database failure is a 500 in the
// error shape that reveals nothing of the cause.
func TestInternalErrorIsSafe(t *testing.T) {
	e := newEnv(t)
	e.store.Close()
	w := e.get("/api/clips")
	eb := wantError(t, w, http.StatusInternalServerError)
	if eb.Error.Message != "internal error" {
		t.Errorf("message: got %q, want %q", eb.Error.Message, "internal error")
	}
	for _, leak := range []string{"sql", "database", ".db", "/"} {
		if strings.Contains(strings.ToLower(w.Body.String()), leak) {
			t.Errorf("body %s contains %q", w.Body, leak)
		}
	}
}

// Contract 2: unknown query parameters are ignored, so the answer is the
// same byte for byte as without them.
func TestUnknownQueryParametersIgnored(t *testing.T) {
	e := newEnv(t)
	for i := range 3 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i)})
	}
	for _, path := range []string{"/api/clips?limit=2", "/api/clips/1?", "/api/platforms?", "/api/health?"} {
		plain := e.get(path)
		extra := e.get(path + "&sort=title&callback=x&foo")
		if plain.Code != http.StatusOK || extra.Code != plain.Code || extra.Body.String() != plain.Body.String() {
			t.Errorf("%s with unknown parameters: got %d %s, want %d %s", path, extra.Code, extra.Body, plain.Code, plain.Body)
		}
	}
}

// Contract 2: a page past the last one is a 200 with an empty list and
// the true total, however far past (up to what int64 holds).
func TestPageFarPastTheEnd(t *testing.T) {
	e := newEnv(t)
	for i := range 3 {
		e.addClip(catalog.Clip{Title: fmt.Sprintf("clip %d", i), Platform: "JAV"})
	}
	for _, q := range []string{"", "&platform=JAV", "&q=clip"} {
		for _, page := range []string{"1099511627777", "9223372036854775807"} {
			w := e.get("/api/clips?page=" + page + q)
			l := decodeList(t, w)
			if fmt.Sprint(l.Meta.Page) != page || l.Meta.Limit != 20 || l.Meta.Total != 3 || !strings.Contains(w.Body.String(), `"data":[]`) {
				t.Errorf("page %s%s: got %s, want page %s, limit 20, total 3 and no clips", page, q, w.Body, page)
			}
		}
	}
}
