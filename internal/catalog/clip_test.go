package catalog_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
)

func TestDecodeClipInput(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		name string
		body string
		want catalog.ClipInput
		// fields the error must name; nil with notObject false = no error
		fields    []string
		notObject bool
	}{
		{name: "empty object", body: `{}`},
		{name: "all fields", body: `{"title":"T","iframe_url":"https://a.example/","cover_url":"https://c.example/x.jpg","actor":"A","studio":"S","platform":"JAV","notes":"N"}`,
			want: catalog.ClipInput{Title: s("T"), IframeURL: s("https://a.example/"), CoverURL: s("https://c.example/x.jpg"), Actor: s("A"), Studio: s("S"), Platform: s("JAV"), Notes: s("N")}},
		{name: "null is absent", body: `{"title":"T","actor":null}`, want: catalog.ClipInput{Title: s("T")}},
		{name: "empty string is present", body: `{"cover_url":""}`, want: catalog.ClipInput{CoverURL: s("")}},
		{name: "surrounding white space", body: " \n{\"title\":\"T\"}\n ", want: catalog.ClipInput{Title: s("T")}},
		{name: "escapes decoded", body: `{"title":"a\"b\u00e9\n"}`, want: catalog.ClipInput{Title: s("a\"bé\n")}},

		{name: "array", body: `[{"title":"T"}]`, notObject: true},
		{name: "string", body: `"title"`, notObject: true},
		{name: "number", body: `42`, notObject: true},
		{name: "null", body: `null`, notObject: true},
		{name: "true", body: `true`, notObject: true},
		{name: "empty body", body: ``, notObject: true},
		{name: "spaces only", body: `   `, notObject: true},
		{name: "malformed", body: `{"title":"T"`, notObject: true},
		{name: "malformed member", body: `{"title" "T"}`, notObject: true},
		{name: "single quotes", body: `{'title':'T'}`, notObject: true},
		{name: "trailing object", body: `{"title":"T"}{"title":"U"}`, notObject: true},
		{name: "trailing garbage", body: `{"title":"T"} x`, notObject: true},
		{name: "trailing close brace", body: `{"title":"T"}}`, notObject: true},
		{name: "trailing close bracket", body: `{"title":"T"}]`, notObject: true},
		{name: "trailing comma", body: `{"title":"T"},`, notObject: true},

		{name: "unknown id", body: `{"title":"T","id":5}`, fields: []string{"id"}},
		{name: "unknown created_at", body: `{"created_at":"2020-01-01T00:00:00Z","title":"T"}`, fields: []string{"created_at"}},
		{name: "unknown foo", body: `{"foo":"bar"}`, fields: []string{"foo"}},
		{name: "case matters", body: `{"Title":"T"}`, fields: []string{"Title"}},
		{name: "number value", body: `{"title":5}`, fields: []string{"title"}},
		{name: "bool value", body: `{"notes":true}`, fields: []string{"notes"}},
		{name: "array value", body: `{"actor":["a"]}`, fields: []string{"actor"}},
		{name: "object value", body: `{"platform":{"x":1}}`, fields: []string{"platform"}},
		{name: "invalid UTF-8", body: "{\"title\":\"a\xff\xfeb\",\"actor\":\"ok\"}", fields: []string{"title"}},
		{name: "truncated UTF-8 sequence", body: "{\"studio\":\"\xe0\xb8\"}", fields: []string{"studio"}},
		{name: "every problem together", body: `{"id":1,"created_at":"x","foo":null,"title":5,"studio":[],"actor":"ok"}`,
			fields: []string{"actor_not", "created_at", "foo", "id", "studio", "title"}[1:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := catalog.DecodeClipInput([]byte(tt.body))
			switch {
			case tt.notObject:
				if err == nil {
					t.Fatalf("DecodeClipInput(%q) = %v, want an error", tt.body, dumpInput(got))
				}
				if code := catalog.ErrorCode(err); code != catalog.EINVALID {
					t.Errorf("code = %q, want %q", code, catalog.EINVALID)
				}
			case tt.fields != nil:
				gotFields := errorFields(t, err)
				if !slices.Equal(gotFields, tt.fields) {
					t.Errorf("failing fields = %q, want %q (err %v)", gotFields, tt.fields, err)
				}
				for _, f := range tt.fields {
					if !strings.Contains(catalog.ErrorMessage(err), f) {
						t.Errorf("message %q does not name %q", catalog.ErrorMessage(err), f)
					}
				}
			default:
				if err != nil {
					t.Fatalf("DecodeClipInput(%q): %v", tt.body, err)
				}
				if dumpInput(got) != dumpInput(tt.want) {
					t.Errorf("DecodeClipInput(%q) = %v, want %v", tt.body, dumpInput(got), dumpInput(tt.want))
				}
			}
		})
	}
}

// dumpInput shows which fields are present and their values.
func dumpInput(in catalog.ClipInput) string {
	var b strings.Builder
	for _, f := range []struct {
		name string
		v    *string
	}{{"title", in.Title}, {"iframe_url", in.IframeURL}, {"cover_url", in.CoverURL}, {"actor", in.Actor}, {"studio", in.Studio}, {"platform", in.Platform}, {"notes", in.Notes}} {
		if f.v != nil {
			b.WriteString(f.name + "=" + *f.v + ";")
		}
	}
	return "{" + b.String() + "}"
}

// errorFields returns the sorted names of err's failing fields, failing
// the test when err is not a validation error.
func errorFields(t testing.TB, err error) []string {
	t.Helper()
	var e *catalog.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want a *catalog.Error", err, err)
	}
	if e.Code != catalog.EINVALID {
		t.Fatalf("code = %q, want %q", e.Code, catalog.EINVALID)
	}
	return slices.Sorted(maps.Keys(e.Fields))
}

func testPlatforms(t testing.TB) *catalog.Platforms {
	t.Helper()
	p, err := catalog.NewPlatforms(append(catalog.DefaultPlatforms(), "Café Déjà"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClipInputSet(t *testing.T) {
	var in catalog.ClipInput
	for _, name := range catalog.ClipFields {
		if !in.Set(name, name+"-value") {
			t.Errorf("Set(%q) = false, want true", name)
		}
	}
	if in.Set("id", "1") || in.Set("created_at", "x") {
		t.Error("Set accepted a field that is not a clip input field")
	}
	if in.Title == nil || *in.Title != "title-value" || in.Notes == nil || *in.Notes != "notes-value" {
		t.Errorf("Set did not store values: %s", dumpInput(in))
	}
}

func TestApplyCreate(t *testing.T) {
	platforms := testPlatforms(t)
	const (
		yt      = "https://www.youtube.com/embed/dQw4w9WgXcQ"
		ytCover = "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"
	)
	thai300 := strings.Repeat("สวัสดี", 50) // 6 runes * 50 = 300 characters, 900 bytes
	s := func(v string) *string { return &v }
	valid := func() catalog.ClipInput {
		return catalog.ClipInput{Title: s("Sunset"), IframeURL: s(yt)}
	}
	with := func(f func(*catalog.ClipInput)) catalog.ClipInput {
		in := valid()
		f(&in)
		return in
	}
	tests := []struct {
		name   string
		in     catalog.ClipInput
		want   catalog.Clip // compared when fields is nil
		fields []string     // failing fields, sorted
	}{
		{name: "minimal, cover derived", in: valid(),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover}},
		{name: "everything, trimmed", in: catalog.ClipInput{Title: s("  Sunset \t"), IframeURL: s(" " + yt + " "), CoverURL: s(" https://img.example/c.jpg "),
			Actor: s(" Ann "), Studio: s("\tStudio\n"), Platform: s(" JAV "), Notes: s("\n line one\r\nline two\t \n")},
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: "https://img.example/c.jpg", Actor: "Ann", Studio: "Studio", Platform: "JAV", Notes: "line one\nline two"}},
		{name: "empty cover derived", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover}},
		{name: "blank cover derived", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("   ") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover}},
		{name: "unknown host gives empty cover", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("https://player.example/v/1") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: "https://player.example/v/1"}},
		{name: "given cover kept", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("http://img.example/a.png?x=1") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: "http://img.example/a.png?x=1"}},
		{name: "title NFC", in: with(func(in *catalog.ClipInput) { in.Title = s("Cafe\u0301") }),
			want: catalog.Clip{Title: "Café", IframeURL: yt, CoverURL: ytCover}},
		{name: "thai title of 300 characters", in: with(func(in *catalog.ClipInput) { in.Title = s(thai300) }),
			want: catalog.Clip{Title: thai300, IframeURL: yt, CoverURL: ytCover}},
		{name: "nfd title of 300 characters after NFC", in: with(func(in *catalog.ClipInput) { in.Title = s(strings.Repeat("e\u0301", 300)) }),
			want: catalog.Clip{Title: strings.Repeat("é", 300), IframeURL: yt, CoverURL: ytCover}},
		{name: "title with tab", in: with(func(in *catalog.ClipInput) { in.Title = s("a\tb") }),
			want: catalog.Clip{Title: "a\tb", IframeURL: yt, CoverURL: ytCover}},
		{name: "actor and studio of 200", in: with(func(in *catalog.ClipInput) {
			in.Actor = s(strings.Repeat("ก", 200))
			in.Studio = s(strings.Repeat("x", 200))
		}),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover, Actor: strings.Repeat("ก", 200), Studio: strings.Repeat("x", 200)}},
		{name: "notes of 5000 with tabs and newlines", in: with(func(in *catalog.ClipInput) { in.Notes = s(strings.Repeat("a\tb\n", 1249) + "abcd") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover, Notes: strings.Repeat("a\tb\n", 1249) + "abcd"}},
		{name: "notes CRLF counted after normalising", in: with(func(in *catalog.ClipInput) { in.Notes = s(strings.Repeat("abc\r\n", 999) + "abcd") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover, Notes: strings.Repeat("abc\n", 999) + "abcd"}},
		{name: "platform empty", in: with(func(in *catalog.ClipInput) { in.Platform = s("  ") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover}},
		{name: "platform thai", in: with(func(in *catalog.ClipInput) { in.Platform = s("คลิปหลุด") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover, Platform: "คลิปหลุด"}},
		{name: "platform NFD composed", in: with(func(in *catalog.ClipInput) { in.Platform = s("Cafe\u0301 De\u0301ja\u0300") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: ytCover, Platform: "Café Déjà"}},
		{name: "url of 2048 bytes", in: with(func(in *catalog.ClipInput) { in.IframeURL = s(longURL(2048)) }),
			want: catalog.Clip{Title: "Sunset", IframeURL: longURL(2048)}},
		{name: "upper-case scheme", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("HTTPS://img.example/c.jpg") }),
			want: catalog.Clip{Title: "Sunset", IframeURL: yt, CoverURL: "HTTPS://img.example/c.jpg"}},

		{name: "nothing", in: catalog.ClipInput{}, fields: []string{"iframe_url", "title"}},
		{name: "title missing", in: with(func(in *catalog.ClipInput) { in.Title = nil }), fields: []string{"title"}},
		{name: "title empty", in: with(func(in *catalog.ClipInput) { in.Title = s("") }), fields: []string{"title"}},
		{name: "title blank", in: with(func(in *catalog.ClipInput) { in.Title = s(" \t\n ") }), fields: []string{"title"}},
		{name: "iframe missing", in: with(func(in *catalog.ClipInput) { in.IframeURL = nil }), fields: []string{"iframe_url"}},
		{name: "iframe blank", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("  ") }), fields: []string{"iframe_url"}},
		{name: "title of 301 thai characters", in: with(func(in *catalog.ClipInput) { in.Title = s(thai300 + "ก") }), fields: []string{"title"}},
		{name: "title of 301 ascii", in: with(func(in *catalog.ClipInput) { in.Title = s(strings.Repeat("x", 301)) }), fields: []string{"title"}},
		{name: "title with newline", in: with(func(in *catalog.ClipInput) { in.Title = s("a\nb") }), fields: []string{"title"}},
		{name: "title with NUL", in: with(func(in *catalog.ClipInput) { in.Title = s("a\x00b") }), fields: []string{"title"}},
		{name: "actor of 201", in: with(func(in *catalog.ClipInput) { in.Actor = s(strings.Repeat("ก", 201)) }), fields: []string{"actor"}},
		{name: "studio of 201", in: with(func(in *catalog.ClipInput) { in.Studio = s(strings.Repeat("x", 201)) }), fields: []string{"studio"}},
		{name: "notes of 5001", in: with(func(in *catalog.ClipInput) { in.Notes = s(strings.Repeat("ก", 5001)) }), fields: []string{"notes"}},
		{name: "notes with NUL", in: with(func(in *catalog.ClipInput) { in.Notes = s("a\x00b") }), fields: []string{"notes"}},
		{name: "notes with escape", in: with(func(in *catalog.ClipInput) { in.Notes = s("a\x1b[31mb") }), fields: []string{"notes"}},
		{name: "notes with DEL", in: with(func(in *catalog.ClipInput) { in.Notes = s("a\x7fb") }), fields: []string{"notes"}},
		{name: "notes with C1 control", in: with(func(in *catalog.ClipInput) { in.Notes = s("a\u0085b") }), fields: []string{"notes"}},
		{name: "notes with lone CR", in: with(func(in *catalog.ClipInput) { in.Notes = s("a\rb") }), fields: []string{"notes"}},
		{name: "url of 2049 bytes", in: with(func(in *catalog.ClipInput) { in.IframeURL = s(longURL(2049)) }), fields: []string{"iframe_url"}},
		{name: "javascript url", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("javascript:alert(1)") }), fields: []string{"iframe_url"}},
		{name: "relative url", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("/embed/dQw4w9WgXcQ") }), fields: []string{"iframe_url"}},
		{name: "scheme-relative url", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("//www.youtube.com/embed/dQw4w9WgXcQ") }), fields: []string{"iframe_url"}},
		{name: "no host", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("http://") }), fields: []string{"iframe_url"}},
		{name: "port only", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("http://:80/x") }), fields: []string{"iframe_url"}},
		{name: "ftp", in: with(func(in *catalog.ClipInput) { in.IframeURL = s("ftp://files.example/v.mp4") }), fields: []string{"iframe_url"}},
		{name: "data url cover", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("data:image/png;base64,AAAA") }), fields: []string{"cover_url"}},
		{name: "javascript cover", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("JavaScript:alert(1)") }), fields: []string{"cover_url"}},
		{name: "space inside url", in: with(func(in *catalog.ClipInput) { in.CoverURL = s("https://img.example/a b.jpg") }), fields: []string{"cover_url"}},
		{name: "platform unknown", in: with(func(in *catalog.ClipInput) { in.Platform = s("jav") }), fields: []string{"platform"}},
		{name: "every field fails", in: catalog.ClipInput{Title: s(strings.Repeat("x", 301)), IframeURL: s("javascript:x"), CoverURL: s("relative.jpg"),
			Actor: s(strings.Repeat("x", 201)), Studio: s(strings.Repeat("x", 201)), Platform: s("nope"), Notes: s("\x00")},
			fields: []string{"actor", "cover_url", "iframe_url", "notes", "platform", "studio", "title"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.fields != nil {
				before := catalog.Clip{ID: 9, Title: "old", Notes: "old notes", CoverURL: "https://img.example/old.jpg"}
				c := before
				err := tt.in.Apply(&c, platforms, true)
				if got := errorFields(t, err); !slices.Equal(got, tt.fields) {
					t.Errorf("failing fields = %q, want %q (err %v)", got, tt.fields, err)
				}
				if c != before {
					t.Errorf("clip changed on failure: got %+v, want %+v", c, before)
				}
				return
			}
			c := catalog.Clip{ID: 9}
			if err := tt.in.Apply(&c, platforms, true); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			tt.want.ID = 9
			if c != tt.want {
				t.Errorf("clip = %+v,\nwant %+v", c, tt.want)
			}
		})
	}
}

func TestApplyPlatformErrorListsAllowed(t *testing.T) {
	platforms := testPlatforms(t)
	title, iframe, platform := "T", "https://youtu.be/dQw4w9WgXcQ", "Nope"
	var c catalog.Clip
	err := catalog.ClipInput{Title: &title, IframeURL: &iframe, Platform: &platform}.Apply(&c, platforms, true)
	var e *catalog.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *catalog.Error", err)
	}
	for _, v := range platforms.List() {
		if !strings.Contains(e.Fields["platform"], v) || !strings.Contains(e.Message, v) {
			t.Errorf("platform error %q / %q does not list %q", e.Fields["platform"], e.Message, v)
		}
	}
}

func TestApplyPatch(t *testing.T) {
	platforms := testPlatforms(t)
	const (
		ytA      = "https://www.youtube.com/embed/aaaaaaaaaaa"
		ytACover = "https://i.ytimg.com/vi/aaaaaaaaaaa/hqdefault.jpg"
		ytB      = "https://youtu.be/bbbbbbbbbbb"
		ytBCover = "https://i.ytimg.com/vi/bbbbbbbbbbb/hqdefault.jpg"
		uploaded = "https://img.example/uploaded.jpg"
		other    = "https://player.example/v/1"
	)
	created := time.Date(2026, 11, 21, 13, 45, 7, 0, time.UTC)
	derived := catalog.Clip{ID: 3, Title: "Old", IframeURL: ytA, CoverURL: ytACover, Actor: "Ann", Studio: "S", Platform: "JAV", Notes: "n", CreatedAt: created}
	custom := derived
	custom.CoverURL = uploaded
	bare := derived
	bare.IframeURL, bare.CoverURL = other, ""
	s := func(v string) *string { return &v }
	tests := []struct {
		name   string
		from   catalog.Clip
		in     catalog.ClipInput
		change func(c *catalog.Clip) // applied to from to get the wanted clip
		fields []string
	}{
		{name: "empty patch changes nothing", from: custom, in: catalog.ClipInput{}, change: func(*catalog.Clip) {}},
		{name: "title only", from: custom, in: catalog.ClipInput{Title: s(" New ")}, change: func(c *catalog.Clip) { c.Title = "New" }},
		{name: "clear optional text", from: custom, in: catalog.ClipInput{Actor: s(""), Studio: s(" "), Notes: s(""), Platform: s("")},
			change: func(c *catalog.Clip) { c.Actor, c.Studio, c.Notes, c.Platform = "", "", "", "" }},
		{name: "platform NFD", from: custom, in: catalog.ClipInput{Platform: s("Cafe\u0301 De\u0301ja\u0300")}, change: func(c *catalog.Clip) { c.Platform = "Café Déjà" }},
		{name: "empty cover re-derives", from: custom, in: catalog.ClipInput{CoverURL: s("")}, change: func(c *catalog.Clip) { c.CoverURL = ytACover }},
		{name: "empty cover with unknown host clears it", from: catalog.Clip{ID: 3, Title: "T", IframeURL: other, CoverURL: uploaded, CreatedAt: created},
			in: catalog.ClipInput{CoverURL: s("")}, change: func(c *catalog.Clip) { c.CoverURL = "" }},
		{name: "new cover kept", from: derived, in: catalog.ClipInput{CoverURL: s(uploaded)}, change: func(c *catalog.Clip) { c.CoverURL = uploaded }},
		{name: "new iframe and cover together", from: derived, in: catalog.ClipInput{IframeURL: s(ytB), CoverURL: s(uploaded)},
			change: func(c *catalog.Clip) { c.IframeURL, c.CoverURL = ytB, uploaded }},
		// An uploaded cover is the caller's choice (contract 3.3: a cover the
		// caller sends is kept); changing the player must not drop it.
		{name: "iframe change keeps uploaded cover", from: custom, in: catalog.ClipInput{IframeURL: s(ytB)}, change: func(c *catalog.Clip) { c.IframeURL = ytB }},
		// A cover that was derived from the old player describes the old
		// video; the patch follows the create rule and derives it anew.
		{name: "iframe change re-derives derived cover", from: derived, in: catalog.ClipInput{IframeURL: s(ytB)},
			change: func(c *catalog.Clip) { c.IframeURL, c.CoverURL = ytB, ytBCover }},
		{name: "iframe change to unknown host drops derived cover", from: derived, in: catalog.ClipInput{IframeURL: s(other)},
			change: func(c *catalog.Clip) { c.IframeURL, c.CoverURL = other, "" }},
		{name: "iframe change derives missing cover", from: bare, in: catalog.ClipInput{IframeURL: s(ytB)},
			change: func(c *catalog.Clip) { c.IframeURL, c.CoverURL = ytB, ytBCover }},
		{name: "other fields keep empty cover", from: bare, in: catalog.ClipInput{Title: s("New")}, change: func(c *catalog.Clip) { c.Title = "New" }},

		{name: "title emptied", from: custom, in: catalog.ClipInput{Title: s("  ")}, fields: []string{"title"}},
		{name: "iframe emptied", from: custom, in: catalog.ClipInput{IframeURL: s("")}, fields: []string{"iframe_url"}},
		{name: "bad iframe and platform", from: custom, in: catalog.ClipInput{IframeURL: s("javascript:x"), Platform: s("x"), Title: s("fine")},
			fields: []string{"iframe_url", "platform"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.from
			err := tt.in.Apply(&c, platforms, false)
			if tt.fields != nil {
				if got := errorFields(t, err); !slices.Equal(got, tt.fields) {
					t.Errorf("failing fields = %q, want %q", got, tt.fields)
				}
				if c != tt.from {
					t.Errorf("clip changed on failure: %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := tt.from
			tt.change(&want)
			if c != want {
				t.Errorf("clip = %+v,\nwant %+v", c, want)
			}
		})
	}
}

// longURL returns an https URL of exactly n bytes.
func longURL(n int) string {
	const prefix = "https://player.example/"
	return prefix + strings.Repeat("a", n-len(prefix))
}

func TestClipAppendJSON(t *testing.T) {
	tests := []struct {
		name string
		clip catalog.Clip
		want string
	}{
		{"contract example", catalog.Clip{ID: 17, Title: "Sunset over the bay", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
			CoverURL: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", Platform: "JAV", CreatedAt: time.Date(2026, 11, 21, 13, 45, 7, 0, time.UTC)},
			`{"id":17,"title":"Sunset over the bay","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ","cover_url":"https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg","actor":"","studio":"","platform":"JAV","notes":"","created_at":"2026-11-21T13:45:07Z"}`},
		{"unset fields are empty strings, local time in UTC, no fraction", catalog.Clip{ID: 1,
			CreatedAt: time.Date(2026, 1, 2, 10, 0, 0, 999_000_000, time.FixedZone("ICT", 7*3600))},
			`{"id":1,"title":"","iframe_url":"","cover_url":"","actor":"","studio":"","platform":"","notes":"","created_at":"2026-01-02T03:00:00Z"}`},
		{"escaping", catalog.Clip{ID: 2, Title: "a\"b\\c</script>", Notes: "line\nline\ttab\u2028", Platform: "คลิปหลุด", CreatedAt: time.Unix(0, 0)},
			`{"id":2,"title":"a\"b\\c</script>","iframe_url":"","cover_url":"","actor":"","studio":"","platform":"คลิปหลุด","notes":"line\nline\ttab\u2028","created_at":"1970-01-01T00:00:00Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.clip.AppendJSON([]byte("prefix"))
			if string(got) != "prefix"+tt.want {
				t.Errorf("AppendJSON =\n%s\nwant\n%s", got, tt.want)
			}
			var m map[string]any
			if err := json.Unmarshal(got[len("prefix"):], &m); err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			if len(m) != 9 {
				t.Errorf("got %d keys, want 9", len(m))
			}
			if _, err := time.Parse(time.RFC3339, m["created_at"].(string)); err != nil {
				t.Errorf("created_at: %v", err)
			}
			// encoding/json HTML-escapes what MarshalJSON returns.
			var want bytes.Buffer
			json.HTMLEscape(&want, []byte(tt.want))
			viaMarshal, err := json.Marshal(tt.clip)
			if err != nil || string(viaMarshal) != want.String() {
				t.Errorf("json.Marshal = %s, %v, want %s", viaMarshal, err, want.String())
			}
		})
	}
}
