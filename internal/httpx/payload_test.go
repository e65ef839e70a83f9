package httpx_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/httpx"
)

// jsonBody returns a JSON document of exactly n bytes.
func jsonBody(n int) []byte {
	const head, tail = `{"data":"`, `"}`
	return []byte(head + strings.Repeat("x", n-len(head)-len(tail)) + tail)
}

func serve(t testing.TB, p *httpx.Payload, status int, method string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, "/api/x", nil)
	for k, vs := range header {
		r.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	httpx.WritePayload(rec, r, status, p)
	return rec
}

func TestNewPayloadETag(t *testing.T) {
	t.Parallel()
	a := httpx.NewPayload([]byte(`{"a":1}`))
	b := httpx.NewPayload([]byte(`{"a":1}`))
	c := httpx.NewPayload([]byte(`{"a":2}`))
	if a.ETag != b.ETag {
		t.Errorf("same bytes give tags %s and %s, want equal", a.ETag, b.ETag)
	}
	if a.ETag == c.ETag {
		t.Errorf("different bytes give the same tag %s", a.ETag)
	}
	for _, tag := range []string{a.ETag, c.ETag} {
		if strings.HasPrefix(tag, "W/") || len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' || strings.Contains(tag[1:len(tag)-1], `"`) {
			t.Errorf("tag %s is not a strong entity tag", tag)
		}
	}
}

func TestWritePayloadSmall(t *testing.T) {
	t.Parallel()
	body := jsonBody(1024) // contract 2: gzip only above 1 KiB
	p := httpx.NewPayload(body)
	rec := serve(t, p, http.StatusOK, http.MethodGet, http.Header{"Accept-Encoding": {"gzip"}})
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d", rec.Code)
	}
	if got := rec.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("Content-Encoding = %q for a body of exactly 1 KiB, want none", got)
	}
	if !bytes.Equal(rec.Body.Bytes(), body) {
		t.Errorf("body differs")
	}
	h := rec.Header()
	if got := h.Get("Content-Type"); got != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := h.Get("ETag"); got != p.ETag {
		t.Errorf("ETag = %q, want %q", got, p.ETag)
	}
	if got := h.Get("Content-Length"); got != strconv.Itoa(len(body)) {
		t.Errorf("Content-Length = %q, want %d", got, len(body))
	}
}

func TestWritePayloadGzip(t *testing.T) {
	t.Parallel()
	body := jsonBody(1025)
	tests := []struct {
		acceptEncoding []string
		gzip           bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"gzip, deflate, br"}, true},
		{[]string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, true},
		{[]string{"deflate", "gzip"}, true},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"identity"}, false},
		{[]string{"br, deflate"}, false},
		{[]string{"x-gzip-like"}, false},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0"}, false},
		{[]string{"gzip;q=0.0"}, false},
		{[]string{"gzip;q=0.000"}, false},
		{[]string{"gzip;Q=0"}, false},
		{[]string{"gzip;level=1;q=0"}, false},
		{[]string{"gzip;q= 0.00 "}, false},
		{[]string{"gzip;q=0 , deflate"}, false},
		{[]string{"deflate, gzip;q=0"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.acceptEncoding, "|"), func(t *testing.T) {
			p := httpx.NewPayload(body)
			rec := serve(t, p, http.StatusOK, http.MethodGet, http.Header{"Accept-Encoding": tt.acceptEncoding})
			h := rec.Header()
			if got := h.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q, want Accept-Encoding", got)
			}
			if got := h.Get("Content-Length"); got != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("Content-Length = %q, body is %d bytes", got, rec.Body.Len())
			}
			if !tt.gzip {
				if got := h.Get("Content-Encoding"); got != "" {
					t.Errorf("Content-Encoding = %q, want none", got)
				}
				if !bytes.Equal(rec.Body.Bytes(), body) || h.Get("ETag") != p.ETag {
					t.Errorf("plain response differs: ETag %s, want %s", h.Get("ETag"), p.ETag)
				}
				return
			}
			if got := h.Get("Content-Encoding"); got != "gzip" {
				t.Fatalf("Content-Encoding = %q, want gzip", got)
			}
			if tag := h.Get("ETag"); tag == p.ETag || tag == "" || strings.HasPrefix(tag, "W/") {
				t.Errorf("gzip ETag = %q, want a strong tag different from the plain %q", tag, p.ETag)
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(plain, body) {
				t.Errorf("gunzipped body differs (err %v)", err)
			}
		})
	}
}

func TestWritePayloadGzipTagStable(t *testing.T) {
	t.Parallel()
	body := jsonBody(4096)
	gz := http.Header{"Accept-Encoding": {"gzip"}}
	first := serve(t, httpx.NewPayload(body), http.StatusOK, http.MethodGet, gz).Header().Get("ETag")
	second := serve(t, httpx.NewPayload(bytes.Clone(body)), http.StatusOK, http.MethodGet, gz).Header().Get("ETag")
	if first != second {
		t.Errorf("gzip tags %s and %s differ for the same bytes", first, second)
	}
}

func TestWritePayloadConditional(t *testing.T) {
	t.Parallel()
	small := httpx.NewPayload([]byte(`{"a":1}`))
	big := httpx.NewPayload(jsonBody(4096))
	gzipTag := serve(t, big, http.StatusOK, http.MethodGet, http.Header{"Accept-Encoding": {"gzip"}}).Header().Get("ETag")
	tests := []struct {
		name          string
		p             *httpx.Payload
		method        string
		status        int
		ifNoneMatch   string
		gzip          bool
		wantNotModify bool
	}{
		{"exact", small, "GET", 200, small.ETag, false, true},
		{"head exact", small, "HEAD", 200, small.ETag, false, true},
		{"in a list", small, "GET", 200, `"nope", ` + small.ETag + `, "other"`, false, true},
		{"list without spaces", small, "GET", 200, `"nope",` + small.ETag, false, true},
		{"weak form", small, "GET", 200, "W/" + small.ETag, false, true},
		{"star", small, "GET", 200, "*", false, true},
		{"other tag", small, "GET", 200, `"nope"`, false, false},
		{"unquoted tag", small, "GET", 200, strings.Trim(small.ETag, `"`), false, false},
		{"prefix of tag", small, "GET", 200, small.ETag[:len(small.ETag)-2] + `"`, false, false},
		{"other payload's tag", small, "GET", 200, big.ETag, false, false},
		{"gzip tag on gzip request", big, "GET", 200, gzipTag, true, true},
		{"plain tag on plain request", big, "GET", 200, big.ETag, false, true},
		{"POST ignores it", small, "POST", 200, small.ETag, false, false},
		{"created ignores it", small, "GET", 201, small.ETag, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{"If-None-Match": {tt.ifNoneMatch}}
			if tt.gzip {
				h.Set("Accept-Encoding", "gzip")
			}
			rec := serve(t, tt.p, tt.status, tt.method, h)
			if !tt.wantNotModify {
				if rec.Code != tt.status {
					t.Errorf("status = %d, want %d", rec.Code, tt.status)
				}
				return
			}
			if rec.Code != http.StatusNotModified {
				t.Fatalf("status = %d, want 304", rec.Code)
			}
			if rec.Body.Len() != 0 {
				t.Errorf("304 has a body: %q", rec.Body)
			}
			if rec.Header().Get("ETag") == "" {
				t.Error("304 has no ETag")
			}
			if got := rec.Header().Get("Content-Encoding"); got != "" {
				t.Errorf("304 has Content-Encoding %q", got)
			}
		})
	}
}

func TestWritePayloadStatusAndHead(t *testing.T) {
	t.Parallel()
	p := httpx.NewPayload([]byte(`{"data":{"id":1}}`))
	rec := serve(t, p, http.StatusCreated, http.MethodPost, nil)
	if rec.Code != http.StatusCreated || rec.Body.String() != `{"data":{"id":1}}` {
		t.Errorf("POST = %d %q", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("ETag"); got != "" {
		t.Errorf("201 to POST carries ETag %q, want none", got)
	}
	// Contract 2: every GET response carries a strong ETag, errors too.
	notFound := serve(t, p, http.StatusNotFound, http.MethodGet, nil)
	if got := notFound.Header().Get("ETag"); got != p.ETag {
		t.Errorf("GET 404 ETag = %q, want %q", got, p.ETag)
	}
	if notFound.Code != http.StatusNotFound {
		t.Errorf("GET 404 with If-None-Match-less request = %d", notFound.Code)
	}

	for _, accept := range []string{"", "gzip"} {
		big := httpx.NewPayload(jsonBody(4096))
		get := serve(t, big, http.StatusOK, http.MethodGet, http.Header{"Accept-Encoding": {accept}})
		head := serve(t, big, http.StatusOK, http.MethodHead, http.Header{"Accept-Encoding": {accept}})
		if head.Code != http.StatusOK || head.Body.Len() != 0 {
			t.Errorf("HEAD = %d with %d body bytes, want 200 and none", head.Code, head.Body.Len())
		}
		for _, k := range []string{"Content-Length", "ETag", "Content-Type", "Content-Encoding", "Vary"} {
			if g, h := get.Header().Get(k), head.Header().Get(k); g != h {
				t.Errorf("Accept-Encoding %q: HEAD %s = %q, GET has %q", accept, k, h, g)
			}
		}
	}
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	httpx.WriteJSON(rec, httptest.NewRequest("GET", "/", nil), http.StatusOK, []byte(`{"ok":true}`))
	if rec.Code != 200 || rec.Body.String() != `{"ok":true}` || rec.Header().Get("ETag") != httpx.NewPayload([]byte(`{"ok":true}`)).ETag {
		t.Errorf("WriteJSON = %d %q ETag %q", rec.Code, rec.Body, rec.Header().Get("ETag"))
	}
}

func TestETagMatches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header string
		tags   []string
		want   bool
	}{
		{`"a"`, []string{`"a"`}, true},
		{`W/"a"`, []string{`"a"`}, true},
		{` "b" , "a" `, []string{`"a"`}, true},
		{`*`, []string{`"a"`}, true},
		{`"b"`, []string{`"a"`, `"b"`}, true},
		{`"b"`, []string{`"a"`}, false},
		{`a`, []string{`"a"`}, false},
		{``, []string{`"a"`}, false},
	}
	for _, tt := range tests {
		if got := httpx.ETagMatches(tt.header, tt.tags...); got != tt.want {
			t.Errorf("ETagMatches(%q, %q) = %v, want %v", tt.header, tt.tags, got, tt.want)
		}
	}
}

// A tag validates only the representation it names: a cache that holds
// the gzip body must not get a 304 for a request that wants plain bytes.
func TestIfNoneMatchPerRepresentation(t *testing.T) {
	t.Parallel()
	p := httpx.NewPayload(jsonBody(4096))
	plainTag := serve(t, p, http.StatusOK, http.MethodGet, nil).Header().Get("ETag")
	gzipTag := serve(t, p, http.StatusOK, http.MethodGet, http.Header{"Accept-Encoding": {"gzip"}}).Header().Get("ETag")
	if plainTag == gzipTag {
		t.Fatalf("plain and gzip share the tag %s", plainTag)
	}
	tests := []struct {
		name, accept, tag string
		want              int
	}{
		{"plain with its tag", "", plainTag, http.StatusNotModified},
		{"gzip with its tag", "gzip", gzipTag, http.StatusNotModified},
		{"plain with the gzip tag", "", gzipTag, http.StatusOK},
		{"gzip with the plain tag", "gzip", plainTag, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{"If-None-Match": {tt.tag}}
			if tt.accept != "" {
				h.Set("Accept-Encoding", tt.accept)
			}
			if got := serve(t, p, http.StatusOK, http.MethodGet, h).Code; got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// Only GET and HEAD answers carry an ETag (contract 2); a write's
// answer is not hashed for one.
func TestNoETagOnWrites(t *testing.T) {
	t.Parallel()
	for _, method := range []string{"POST", "PATCH", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		httpx.WriteJSON(rec, httptest.NewRequest(method, "/api/clips", nil), http.StatusCreated, []byte(`{"data":{}}`))
		if got := rec.Header().Get("ETag"); got != "" || rec.Code != http.StatusCreated || rec.Body.String() != `{"data":{}}` {
			t.Errorf("%s: got %d %q with ETag %q, want 201 and no ETag", method, rec.Code, rec.Body, got)
		}
	}
}

// Every body size, on both sides of the encoders' boundary (32 KiB),
// gzips to one member that decodes to the body, and to the same bytes
// each time (a strong ETag names them on every instance).
func TestGzippedRoundTrip(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1025, 32 << 10, 32<<10 + 1, 200_000} {
		plain := jsonBody(n)
		z := httpx.NewPayload(plain).Gzipped()
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%d bytes: round trip differs (err %v)", n, err)
		}
		if again := httpx.NewPayload(bytes.Clone(plain)).Gzipped(); !bytes.Equal(again, z) {
			t.Errorf("%d bytes: two payloads of the same body gzip differently", n)
		}
	}
}
