package admin_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
)

// The pages speak the reader's language (issue 42): every word a
// template or a handler writes comes from the locale catalog, so a Thai
// or Chinese rendering of a page holds no English word outside data and
// names.

// thaiData fills the catalog with records whose text is all Thai, so
// that any Latin word on a page is the page's own.
func thaiData(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	e.addClip(catalog.Clip{Title: "คลิปทดสอบ", Actor: "นักแสดงหนึ่ง", Studio: "ค่ายหนึ่ง", Platform: "ทวิต", Notes: "บันทึก",
		IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"})
	m := []catalog.Movie{{Name: "หนังทดสอบ", Year: "2024", IDCode: "ABC-123", Release: "2024-05-01",
		Episodes: []catalog.Server{{Name: "หลัก", Episodes: []catalog.Episode{{Name: "ตอนที่ 1", LinkEmbed: "https://player.example/e/1"}}}}}}
	if err := e.store.UpsertMovies(ctx, m); err != nil {
		t.Fatal(err)
	}
	src, err := catalog.NewSource("peer", "https://peer.example/api.php/provide/vod/", time.Hour, 24)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	if err := e.store.RecordRun(ctx, catalog.SourceRun{Source: "peer", Started: now.Add(-time.Minute), Finished: now, Pages: 2, Read: 3, Written: 2, Rejected: 1}); err != nil {
		t.Fatal(err)
	}
	tok, err := catalog.NewAPIToken("โทเคนสคริปต์", "clips:write")
	if err != nil {
		t.Fatal(err)
	}
	tok.TokenHash = strings.Repeat("ab", 32)
	if err := e.store.CreateToken(ctx, &tok); err != nil {
		t.Fatal(err)
	}
}

// allowed are the Latin words a Thai or Chinese page may show: names of
// products, formats and protocols, the switcher's "English", the Latin
// data of thaiData, of the forms' posts and the configured platforms.
// Identifiers (link_embed, clips:write) and addresses are skipped whole.
var allowed = strings.Fields(`English YouTube Dailymotion Douban MacCMS JSON Lines CSV API URL MiB KiB UTC
	OpenAPI JavaScript iframe M3U8 ABC JAV JAVJAV JAVJAVJAV peer YYYY MM DD YYYY-MM-DD http https ftp bogus`)

var (
	// Code samples and the values of text areas (data) are not read.
	skipped = regexp.MustCompile(`(?s)<(script|style|code|pre|noscript|textarea)\b.*?</(script|style|code|pre|noscript|textarea)>`)
	shown   = regexp.MustCompile(`\s(alt|title|placeholder|aria-label|data-label|data-failed|data-msg-[a-z-]+)="([^"]*)"`)
	tag     = regexp.MustCompile(`(?s)<[^>]*>`)
	latin   = regexp.MustCompile(`[A-Za-z][\w:./-]*`)
	// jsSlot is a value a script puts into a message: {pct}.
	jsSlot   = regexp.MustCompile(`\{[a-z]+\}`)
	htmlLang = regexp.MustCompile(`<html lang="([^"]+)">`)
)

// englishWords are the Latin words a reader sees on page: its text and
// the attributes that are read out or shown, outside code samples.
func englishWords(page string) []string {
	page = skipped.ReplaceAllString(page, " ")
	var text []string
	for _, m := range shown.FindAllStringSubmatch(page, -1) {
		text = append(text, m[2])
	}
	text = append(text, tag.ReplaceAllString(page, " "))
	var out []string
	all := jsSlot.ReplaceAllString(html.UnescapeString(strings.Join(text, " ")), " ")
	for _, w := range latin.FindAllString(all, -1) {
		w = strings.TrimRight(w, ".:/-")
		if len(w) < 2 || strings.ContainsAny(w, "_:/.0123456789") || slices.Contains(allowed, w) {
			continue
		}
		out = append(out, w)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pageCase is one page: how to reach it and what status it answers.
type pageCase struct {
	name   string
	method string
	target string
	form   url.Values
	status int
	anon   bool // without the session
}

var pageCases = []pageCase{
	{name: "home", target: "/", status: 200, anon: true},
	{name: "clip", target: "/clips/1", status: 200, anon: true},
	{name: "public 404", target: "/clips/99", status: 404, anon: true},
	{name: "public bad search", target: "/?platform=nope", status: 400, anon: true},
	{name: "public filtered", target: "/?actor=x&studio=y", status: 200, anon: true},
	{name: "public facet", target: "/?facet=actor&platform=JAV", status: 200, anon: true},
	{name: "login", target: "/admin/login", status: 200, anon: true},
	{name: "wrong login", method: "POST", target: "/admin/login", form: url.Values{"username": {"ผู้ดูแล"}, "password": {"ผิด"}}, status: 401, anon: true},
	{name: "clips", target: "/admin", status: 200},
	{name: "clips notice", target: "/admin?saved=1", status: 200},
	{name: "clips past end", target: "/admin?page=9", status: 200},
	{name: "clip form errors", method: "POST", target: "/admin/clips", form: url.Values{"title": {""}, "iframe_url": {"ftp://x"}, "cover_url": {"http://a b"}}, status: 422},
	{name: "edit clip", target: "/admin/clips/1/edit", status: 200},
	{name: "delete clip", target: "/admin/clips/1/delete", status: 200},
	{name: "no such clip", target: "/admin/clips/99/edit", status: 404},
	{name: "movies", target: "/admin/movies?deleted=4", status: 200},
	{name: "new movie", target: "/admin/movies/new", status: 200},
	{name: "movie form errors", method: "POST", target: "/admin/movies", form: url.Values{"name": {""}, "year": {"20x"}, "release": {"2020-02-31"},
		"server_name.0": {"หลัก"}, "server_data.0": {"ตอน 1 | ftp://x |"}}, status: 422},
	{name: "edit movie", target: "/admin/movies/1/edit", status: 200},
	{name: "movies filtered", target: "/admin/movies?actor=x&studio=y&year=2020-2024&sort=score", status: 200},
	{name: "movie facet", target: "/admin/movies?facet=actor&category=x", status: 200},
	{name: "delete movie", target: "/admin/movies/1/delete", status: 200},
	{name: "import", target: "/admin/import", status: 200},
	{name: "snapshot", target: "/admin/snapshot?rebuild=requested", status: 200},
	{name: "tokens", target: "/admin/tokens?revoked=1", status: 200},
	{name: "token errors", method: "POST", target: "/admin/tokens", form: url.Values{"name": {""}, "scope": {"bogus"}}, status: 422},
	{name: "sources", target: "/admin/sources?added=peer", status: 200},
	{name: "dead links", target: "/admin/links?rechecked=1", status: 200},
	{name: "source errors", method: "POST", target: "/admin/sources", form: url.Values{"name": {"ชื่อ!"}, "url": {"ftp://x"}, "every": {"ทุกวัน"}, "hours": {"x"}}, status: 422},
	{name: "api reference", target: "/api/docs", status: 200, anon: true},
}

func TestPagesInEveryLanguage(t *testing.T) {
	e := newEnv(t)
	thaiData(t, e)
	e.createAdmin("ผู้ดูแล", testPassword)
	w := e.do(loginForm("ผู้ดูแล", testPassword))
	cookie := sessionCookie(w)
	if cookie == nil {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	for _, lang := range []struct{ accept, want string }{{"th-TH,th;q=0.9", "th"}, {"zh-CN,zh;q=0.9,en;q=0.5", "zh-Hans"}, {"en-US", "en"}} {
		for _, pc := range pageCases {
			t.Run(lang.want+"/"+pc.name, func(t *testing.T) {
				rq := request{method: pc.method, target: pc.target, headers: map[string]string{"Accept-Language": lang.accept}}
				if pc.form != nil {
					rq.body = pc.form.Encode()
					rq.headers["Content-Type"] = "application/x-www-form-urlencoded"
				}
				if !pc.anon {
					rq.cookie = cookie
				}
				w := e.do(rq)
				body := w.Body.String()
				if w.Code != pc.status {
					t.Fatalf("status %d, want %d; body %s", w.Code, pc.status, body)
				}
				if m := htmlLang.FindStringSubmatch(body); m == nil || m[1] != lang.want {
					t.Errorf("<html lang> %v, want %s", m, lang.want)
				}
				if vary := strings.Join(w.Header().Values("Vary"), ", "); !strings.Contains(vary, "Accept-Language") {
					t.Errorf("Vary %q does not name Accept-Language", vary)
				}
				if lang.want == "en" {
					return
				}
				if words := englishWords(body); len(words) > 0 {
					t.Errorf("English words on the %s page: %q", lang.want, words)
				}
			})
		}
	}
}

// TestEnglishWordsFound checks the checker: an English page has words
// it reports, a Thai one with only data and names none.
func TestEnglishWordsFound(t *testing.T) {
	if got := englishWords(`<p title="Open it">ดู <a href="/x">YouTube</a></p>`); !slices.Equal(got, []string{"Open", "it"}) {
		t.Errorf("got %q", got)
	}
	if got := englishWords(`<p>ดู <code>clips:write</code> JSON</p><script>var x = "Hello";</script>`); len(got) != 0 {
		t.Errorf("got %q", got)
	}
}

// TestJSONIgnoresLanguage: the JSON API, its errors and the OpenAPI
// document are the same bytes whatever language the client asks for.
func TestJSONIgnoresLanguage(t *testing.T) {
	e := newEnv(t)
	thaiData(t, e)
	cookie := e.login()
	for _, rq := range []request{
		{target: "/api/clips"},
		{target: "/api/clips/1"},
		{target: "/api/clips/99"},
		{target: "/api/clips?platform=nope"},
		{target: "/api/clips?limit=abc"},
		{target: "/api/platforms"},
		{target: "/api/openapi.json"},
		{method: http.MethodPost, target: "/api/clips", body: `{"title":"","iframe_url":"ftp://x"}`, cookie: cookie,
			headers: map[string]string{"Content-Type": "application/json"}},
		{method: http.MethodPatch, target: "/api/clips/1", body: `{"year":1}`, cookie: cookie,
			headers: map[string]string{"Content-Type": "application/json"}},
	} {
		var first string
		for i, lang := range []map[string]string{{}, {"Accept-Language": "th"}, {"Accept-Language": "zh-CN,zh;q=0.9"}, {"Cookie": "lang=th"}} {
			r := rq
			r.headers = map[string]string{}
			for k, v := range rq.headers {
				r.headers[k] = v
			}
			for k, v := range lang {
				r.headers[k] = v
			}
			if k, ok := lang["Cookie"]; ok {
				delete(r.headers, "Cookie")
				if r.cookie == nil {
					r.cookie = &http.Cookie{Name: "lang", Value: strings.TrimPrefix(k, "lang=")}
				}
			}
			got := e.do(r).Body.String()
			if i == 0 {
				first = got
				if !strings.HasPrefix(strings.TrimSpace(got), "{") {
					t.Fatalf("%s %s: not JSON: %s", rq.method, rq.target, got)
				}
				continue
			}
			if got != first {
				t.Errorf("%s %s with %v:\n%s\nwant\n%s", rq.method, rq.target, lang, got, first)
			}
		}
	}
}

// TestSwitcher: the switcher's choice sticks in a cookie; a signed-in
// administrator's is saved and wins over the browser's on any device.
func TestSwitcher(t *testing.T) {
	e := newEnv(t)
	post := func(lang, referer string, cookie *http.Cookie) *http.Response {
		t.Helper()
		return e.do(request{method: http.MethodPost, target: "/language", body: url.Values{"lang": {lang}}.Encode(), cookie: cookie,
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Referer": referer}}).Result()
	}
	langOf := func(target string, cookie *http.Cookie, accept string) string {
		t.Helper()
		w := e.do(request{target: target, cookie: cookie, headers: map[string]string{"Accept-Language": accept}})
		m := htmlLang.FindStringSubmatch(w.Body.String())
		if m == nil {
			t.Fatalf("GET %s: %d, no <html lang>", target, w.Code)
		}
		return m[1]
	}

	res := post("zh-Hans", "http://example.com/?q=x&page=2", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?q=x&page=2" {
		t.Fatalf("switch: %d to %q, want 303 to /?q=x&page=2", res.StatusCode, res.Header.Get("Location"))
	}
	var chosen *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "lang" {
			chosen = c
		}
	}
	if chosen == nil || chosen.Value != "zh-Hans" || !chosen.HttpOnly {
		t.Fatalf("switch cookie %+v", chosen)
	}
	if got := langOf("/", chosen, "th"); got != "zh-Hans" {
		t.Errorf("public page with the cookie and Accept-Language th: %s, want zh-Hans", got)
	}
	for _, ref := range []string{"https://evil.example/x", "//evil.example/x", ""} {
		if loc := post("th", ref, nil).Header.Get("Location"); loc != "/" {
			t.Errorf("Referer %q sends to %q, want /", ref, loc)
		}
	}
	if res := post("fr", "", nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown language: %d, want 400", res.StatusCode)
	}

	session := e.login()
	if res := post("th", "http://example.com/admin/tokens", session); res.Header.Get("Location") != "/admin/tokens" {
		t.Fatalf("console switch to %q", res.Header.Get("Location"))
	}
	// Another browser: no language cookie, an English Accept-Language.
	if got := langOf("/admin", session, "en-US"); got != "th" {
		t.Errorf("console after saving th: %s, want th", got)
	}
	if got := langOf("/", nil, "en-US"); got != "en" {
		t.Errorf("public page of a visitor: %s, want en", got)
	}
}

// TestDefaultLanguage: serve --default-language is the language of a
// browser that asks for none of the catalog's.
func TestDefaultLanguage(t *testing.T) {
	e := newEnv(t, func(c *cli.ServiceDeps) { c.DefaultLanguage = "th" })
	for _, tc := range []struct{ accept, want string }{{"", "th"}, {"fr", "th"}, {"en", "en"}, {"zh-TW", "zh-Hans"}} {
		w := e.do(request{target: "/", headers: map[string]string{"Accept-Language": tc.accept}})
		if m := htmlLang.FindStringSubmatch(w.Body.String()); m == nil || m[1] != tc.want {
			t.Errorf("Accept-Language %q: lang %v, want %s", tc.accept, m, tc.want)
		}
	}
}
