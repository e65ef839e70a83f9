package admin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The movie form names the posters as the seed does (poster1 landscape,
// poster2 portrait) and previews each: the typed URL when it is an
// absolute http(s) URL, else the placeholder, so that no other scheme
// reaches an <img>. Each server's episodes get an editor whose lines
// are numbered and counted as the server counts them (errors name
// lines). The console calls itself the catalog console on every page;
// the public pages keep the clip catalog's name.
func TestConsoleMovieFormParts(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	for _, tc := range []struct {
		name, poster1, poster2 string
		episodes               string
		src1, src2             string // "" for the placeholder
		lines                  string
		numbers                string
	}{
		{name: "web addresses", poster1: "https://img.example/wide.jpg?a=1&b=2", poster2: "http://img.example/tall.jpg",
			episodes: "Ep 1 | https://p.example/1\r\nEp 2 | https://p.example/2\r\n", src1: "https://img.example/wide.jpg?a=1&amp;b=2", src2: "http://img.example/tall.jpg",
			lines: "Lines: 2", numbers: "1\n2"},
		{name: "other schemes", poster1: "javascript:alert(1)", poster2: "data:image/png;base64,AAAA",
			episodes: "\nEp 1 | ftp://x\n\n", lines: "Lines: 3", numbers: "1\n2\n3"},
		{name: "not a URL", poster1: "//img.example/a.jpg", poster2: "https:// spaced.example/a.jpg", episodes: "", lines: "Lines: 1", numbers: "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// An invalid name keeps the form on the page (422) with the
			// values as typed.
			res, body := c.post("/admin/movies", url.Values{"name": {""}, "poster1_url": {tc.poster1}, "poster2_url": {tc.poster2},
				"server_name.0": {"Main"}, "server_data.0": {tc.episodes}})
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("got %d, want 422", res.StatusCode)
			}
			for i, want := range []string{tc.src1, tc.src2} {
				shape := []string{"landscape", "portrait"}[i]
				m := regexp.MustCompile(`data-poster="` + shape + `"[\s\S]*?<img src="([^"]*)"`).FindStringSubmatch(body)
				if m == nil {
					t.Fatalf("no %s preview", shape)
				}
				if want == "" && !strings.HasPrefix(m[1], "/static/placeholder") || want != "" && m[1] != want {
					t.Errorf("%s preview src %q, want %q", shape, m[1], want)
				}
			}
			for _, want := range []string{`<label for="poster1_url">Landscape poster URL</label>`, `<label for="poster2_url">Portrait poster URL</label>`,
				`<span class="field__hint code-editor__lines" id="server_data.0-lines" data-line-count>` + tc.lines + `</span>`,
				`data-gutter>` + tc.numbers + `</pre>`, `wrap="off"`} {
				if !strings.Contains(body, want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}

	for path, want := range map[string]string{
		"/admin/movies/new": "<title>Add a movie · Catalog console</title>",
		"/admin":            `<a class="brand" href="/admin">`,
		"/admin/movies":     "Catalog console · clips and movies",
		"/":                 "<title>Clips · Clip catalog</title>",
	} {
		if _, body := c.get(path); !strings.Contains(body, want) {
			t.Errorf("%s lacks %q", path, want)
		}
	}
}

// A movie's page links each of its categories, actors, directors,
// studios, genres and countries to the movie list filtered on that
// value (contract 12).
func TestConsoleMovieLinks(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	res, _ := c.post("/admin/movies", url.Values{"name": {"Linked"}, "categories": {"Drama\nละคร"}, "actor": {"Ann Lee\n李安娜"},
		"studio": {"S1 & Co"}, "country": {"TH"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d", res.StatusCode)
	}
	id := strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added=")
	_, body := c.get("/admin/movies/" + id + "/edit")
	for _, want := range []string{
		`<a class="tag" href="/admin/movies?category=Drama">Drama</a>`,
		`<a class="tag" href="/admin/movies?category=%E0%B8%A5%E0%B8%B0%E0%B8%84%E0%B8%A3">ละคร</a>`,
		`<a class="tag" href="/admin/movies?actor=Ann&#43;Lee">Ann Lee</a>`,
		`<a class="tag" href="/admin/movies?actor=%E6%9D%8E%E5%AE%89%E5%A8%9C">李安娜</a>`,
		`<a class="tag" href="/admin/movies?studio=S1&#43;%26&#43;Co">S1 &amp; Co</a>`,
		`<a class="tag" href="/admin/movies?country=TH">TH</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("edit page lacks %s", want)
		}
	}
	if strings.Contains(body, "?director=") || strings.Contains(body, "?genre=") {
		t.Errorf("links for fields the movie does not have")
	}
	if _, body := c.get("/admin/movies/new"); strings.Contains(body, `class="movie-links"`) {
		t.Errorf("the add form has links")
	}
}
