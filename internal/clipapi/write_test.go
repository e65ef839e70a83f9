package clipapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

const validClip = `{"title":"Sunset over the bay","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ"}`

func TestCreateNeedsSessionFirst(t *testing.T) {
	e := newEnv(t)
	bodies := []struct {
		name, contentType, body string
	}{
		{"valid", "application/json", validClip},
		{"malformed", "application/json", `{"title":`},
		{"wrong type", "text/plain", validClip},
		{"no type", "", validClip},
		{"too large", "application/json", `{"notes":"` + strings.Repeat("x", catalog.MaxClipBody) + `"}`},
		{"unknown member", "application/json", `{"id":1}`},
	}
	cookies := map[string]*http.Cookie{
		"no cookie":     nil,
		"unknown token": {Name: "catalog_session", Value: strings.Repeat("ab", 32)},
		"malformed":     {Name: "catalog_session", Value: "not-a-token"},
	}
	for _, b := range bodies {
		for cname, cookie := range cookies {
			t.Run(b.name+"/"+cname, func(t *testing.T) {
				headers := map[string]string{}
				if b.contentType != "" {
					headers["Content-Type"] = b.contentType
				}
				w := e.do(request{method: "POST", target: "/api/clips", body: b.body, headers: headers, cookie: cookie})
				wantError(t, w, http.StatusUnauthorized)
			})
		}
	}
	if n := e.clipCount(); n != 0 {
		t.Errorf("clips stored: got %d, want 0", n)
	}
}

func TestCreate(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()

	w := e.postJSON("POST", "/api/clips", `{"title":"  Sunset over the bay  ","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ",
		"actor":"A","studio":"S","platform":"คลิปหลุด","notes":"line 1\nline 2"}`, cookie)
	if w.Code != http.StatusCreated {
		t.Fatalf("got status %d, want 201; body %s", w.Code, w.Body)
	}
	c := decodeClip(t, w)
	if got, want := w.Header().Get("Location"), fmt.Sprintf("/api/clips/%d", c.ID); got != want || c.ID <= 0 {
		t.Errorf("Location: got %q, want %q", got, want)
	}
	want := clipJSON{ID: c.ID, Title: "Sunset over the bay", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
		CoverURL: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", Actor: "A", Studio: "S", Platform: "คลิปหลุด",
		Notes: "line 1\nline 2", CreatedAt: c.CreatedAt}
	if c != want {
		t.Errorf("got %+v,\nwant %+v", c, want)
	}
	if !rfc3339UTC.MatchString(c.CreatedAt) {
		t.Errorf("created_at %q is not RFC 3339 UTC", c.CreatedAt)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control: got %q, want no-store", got)
	}
	// The stored clip is the one answered.
	if got := decodeClip(t, e.get(fmt.Sprintf("/api/clips/%d", c.ID))); got != c {
		t.Errorf("stored: got %+v, want %+v", got, c)
	}

	tests := []struct {
		name, body, wantCover string
	}{
		{"derived dailymotion", `{"title":"t","iframe_url":"https://www.dailymotion.com/video/x8abc12"}`, "https://www.dailymotion.com/thumbnail/video/x8abc12"},
		{"empty cover derived", `{"title":"t","iframe_url":"https://youtu.be/dQw4w9WgXcQ","cover_url":""}`, "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"},
		{"unknown host", `{"title":"t","iframe_url":"https://player.example/embed/dQw4w9WgXcQ"}`, ""},
		{"given cover kept", `{"title":"t","iframe_url":"https://youtu.be/dQw4w9WgXcQ","cover_url":"https://img.example/c.jpg"}`, "https://img.example/c.jpg"},
		{"charset param", `{"title":"t","iframe_url":"https://player.example/1"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.do(request{method: "POST", target: "/api/clips", body: tt.body, cookie: cookie,
				headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}})
			if w.Code != http.StatusCreated {
				t.Fatalf("got status %d, want 201; body %s", w.Code, w.Body)
			}
			if got := decodeClip(t, w).CoverURL; got != tt.wantCover {
				t.Errorf("cover_url: got %q, want %q", got, tt.wantCover)
			}
		})
	}
}

func TestCreateRejects(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	tests := []struct {
		name        string
		contentType string
		body        string
		status      int
		wantFields  []string // every failing field, exactly
		wantInMsg   string
	}{
		{"no content type", "", validClip, http.StatusUnsupportedMediaType, nil, "application/json"},
		{"text/plain", "text/plain", validClip, http.StatusUnsupportedMediaType, nil, ""},
		{"form", "application/x-www-form-urlencoded", "title=x", http.StatusUnsupportedMediaType, nil, ""},
		{"json suffix", "application/jsonx", validClip, http.StatusUnsupportedMediaType, nil, ""},
		{"too large", "application/json", `{"title":"t","iframe_url":"https://a.example/","notes":"` + strings.Repeat("x", catalog.MaxClipBody) + `"}`, http.StatusRequestEntityTooLarge, nil, ""},
		{"malformed", "application/json", `{"title":`, http.StatusBadRequest, nil, ""},
		{"empty body", "application/json", ``, http.StatusBadRequest, nil, ""},
		{"array", "application/json", `[` + validClip + `]`, http.StatusBadRequest, nil, ""},
		{"string", "application/json", `"hello"`, http.StatusBadRequest, nil, ""},
		{"null", "application/json", `null`, http.StatusBadRequest, nil, ""},
		{"two objects", "application/json", validClip + validClip, http.StatusBadRequest, nil, ""},
		{"id member", "application/json", `{"id":5,"title":"t","iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"id"}, "id"},
		{"created_at member", "application/json", `{"created_at":"2020-01-01T00:00:00Z","title":"t","iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"created_at"}, "created_at"},
		{"missing title", "application/json", `{"iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"title"}, "title"},
		{"missing iframe", "application/json", `{"title":"t"}`, http.StatusBadRequest, []string{"iframe_url"}, "iframe_url"},
		{"blank title", "application/json", `{"title":"   ","iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"title"}, ""},
		{"number title", "application/json", `{"title":5,"iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"title"}, ""},
		{"long title", "application/json", `{"title":"` + strings.Repeat("ก", 301) + `","iframe_url":"https://a.example/"}`, http.StatusBadRequest, []string{"title"}, ""},
		{"every field wrong", "application/json", `{"iframe_url":"javascript:alert(1)","cover_url":"ftp://x/y","actor":"` + strings.Repeat("a", 201) +
			`","studio":"` + strings.Repeat("s", 201) + `","platform":"jav","notes":"bell\u0007","extra":"x"}`,
			http.StatusBadRequest, []string{"actor", "cover_url", "extra", "iframe_url", "notes", "platform", "studio", "title"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			headers := map[string]string{}
			if tt.contentType != "" {
				headers["Content-Type"] = tt.contentType
			}
			w := e.do(request{method: "POST", target: "/api/clips", body: tt.body, headers: headers, cookie: cookie})
			eb := wantError(t, w, tt.status)
			var got []string
			for k := range eb.Error.Fields {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.wantFields) {
				t.Errorf("fields: got %v, want %v", eb.Error.Fields, tt.wantFields)
			}
			if !strings.Contains(eb.Error.Message, tt.wantInMsg) {
				t.Errorf("message %q does not mention %q", eb.Error.Message, tt.wantInMsg)
			}
			if w.Header().Get("Location") != "" {
				t.Errorf("Location on an error: %q", w.Header().Get("Location"))
			}
		})
	}
	if n := e.clipCount(); n != 0 {
		t.Errorf("clips stored after rejected requests: got %d, want 0", n)
	}
}

func TestPatch(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	c := e.addClip(catalog.Clip{Title: "old", IframeURL: "https://youtu.be/dQw4w9WgXcQ", CoverURL: "https://img.example/own.jpg", Actor: "A"})
	path := fmt.Sprintf("/api/clips/%d", c.ID)

	steps := []struct {
		name   string
		body   string
		status int
		check  func(t *testing.T, got clipJSON)
	}{
		{"title only", `{"title":"new"}`, http.StatusOK, func(t *testing.T, got clipJSON) {
			if got.Title != "new" || got.Actor != "A" || got.CoverURL != "https://img.example/own.jpg" {
				t.Errorf("got %+v, want title changed and the rest kept", got)
			}
		}},
		{"empty object", `{}`, http.StatusOK, func(t *testing.T, got clipJSON) {
			if got.Title != "new" {
				t.Errorf("got %+v", got)
			}
		}},
		{"empty cover re-derives", `{"cover_url":""}`, http.StatusOK, func(t *testing.T, got clipJSON) {
			if got.CoverURL != "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" {
				t.Errorf("cover_url: got %q, want derived", got.CoverURL)
			}
		}},
		{"clear actor", `{"actor":""}`, http.StatusOK, func(t *testing.T, got clipJSON) {
			if got.Actor != "" {
				t.Errorf("actor: got %q, want empty", got.Actor)
			}
		}},
		{"invalid changes nothing", `{"title":"","platform":"nope"}`, http.StatusBadRequest, nil},
		{"unknown member", `{"id":9}`, http.StatusBadRequest, nil},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			w := e.postJSON("PATCH", path, st.body, cookie)
			if st.status != http.StatusOK {
				wantError(t, w, st.status)
				if got := decodeClip(t, e.get(path)); got.Title != "new" || got.Platform != "" {
					t.Errorf("after a rejected patch: got %+v", got)
				}
				return
			}
			if w.Code != http.StatusOK {
				t.Fatalf("got status %d, want 200; body %s", w.Code, w.Body)
			}
			got := decodeClip(t, w)
			st.check(t, got)
			if stored := decodeClip(t, e.get(path)); stored != got {
				t.Errorf("stored %+v differs from answered %+v", stored, got)
			}
		})
	}

	errs := []struct {
		name, target, contentType string
		cookie                    *http.Cookie
		status                    int
	}{
		{"anonymous", path, "application/json", nil, http.StatusUnauthorized},
		{"anonymous bad id", "/api/clips/abc", "text/plain", nil, http.StatusUnauthorized},
		{"bad id", "/api/clips/abc", "application/json", cookie, http.StatusBadRequest},
		{"huge id", "/api/clips/99999999999999999999", "application/json", cookie, http.StatusBadRequest},
		{"missing", "/api/clips/987654", "application/json", cookie, http.StatusNotFound},
		{"wrong type", path, "text/plain", cookie, http.StatusUnsupportedMediaType},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			w := e.do(request{method: "PATCH", target: tt.target, body: `{"title":"x"}`, cookie: tt.cookie,
				headers: map[string]string{"Content-Type": tt.contentType}})
			wantError(t, w, tt.status)
		})
	}
	if got := decodeClip(t, e.get(path)); got.Title != "new" {
		t.Errorf("title after rejected patches: got %q, want new", got.Title)
	}
}

func TestDelete(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	c := e.addClip(catalog.Clip{Title: "doomed"})
	path := fmt.Sprintf("/api/clips/%d", c.ID)

	wantError(t, e.do(request{method: "DELETE", target: path}), http.StatusUnauthorized)
	wantError(t, e.do(request{method: "DELETE", target: "/api/clips/abc", cookie: cookie}), http.StatusBadRequest)
	if e.get(path).Code != http.StatusOK {
		t.Fatal("clip gone after rejected deletes")
	}

	w := e.do(request{method: "DELETE", target: path, cookie: cookie})
	if w.Code != http.StatusNoContent || w.Body.Len() != 0 {
		t.Fatalf("got status %d body %q, want 204 and no body", w.Code, w.Body)
	}
	wantError(t, e.get(path), http.StatusNotFound)
	wantError(t, e.do(request{method: "DELETE", target: path, cookie: cookie}), http.StatusNotFound)
}

func TestCrossOriginWritesRefused(t *testing.T) {
	e := newEnv(t)
	cookie := e.login()
	tests := []struct {
		name    string
		method  string
		target  string
		headers map[string]string
		status  int
	}{
		{"cross-site fetch", "POST", "/api/clips", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"same-site fetch", "POST", "/api/clips", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"foreign origin", "POST", "/api/clips", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"patch foreign", "PATCH", "/api/clips/1", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"delete cross-site", "DELETE", "/api/clips/1", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"login cross-site", "POST", "/admin/login", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"form cross-site", "POST", "/admin/clips", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"same origin", "POST", "/api/clips", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://example.com"}, http.StatusCreated},
		{"no browser headers", "POST", "/api/clips", nil, http.StatusCreated},
		{"cross-site read allowed", "GET", "/api/clips", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			headers := map[string]string{"Content-Type": "application/json"}
			for k, v := range tt.headers {
				headers[k] = v
			}
			before := e.clipCount()
			w := e.do(request{method: tt.method, target: tt.target, body: validClip, headers: headers, cookie: cookie})
			if tt.status == http.StatusForbidden {
				wantError(t, w, http.StatusForbidden)
				if after := e.clipCount(); after != before {
					t.Errorf("clips: got %d after a refused request, want %d", after, before)
				}
				return
			}
			if w.Code != tt.status {
				t.Errorf("got status %d, want %d; body %s", w.Code, tt.status, w.Body)
			}
		})
	}
}
