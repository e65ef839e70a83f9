package web_test

import (
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// The public grid takes the clip filters of GET /api/clips (platform,
// actor, studio; contract 12), shows the filters in force with links
// that remove them, and with facet=F lists F's values under the other
// filters with their counts, each linking to the clips filtered on it.
func TestBrowseClips(t *testing.T) {
	s := newSite(t)
	for _, c := range []catalog.Clip{
		{Title: "One", Actor: "Ann Lee", Studio: "Bay", Platform: "JAV"},
		{Title: "Two", Actor: "Ann Lee", Studio: "Cove", Platform: "ทวิต"},
		{Title: "Three", Actor: "Bo", Studio: "Bay", Platform: "JAV"},
	} {
		s.addClip(t, c)
	}
	titles := regexp.MustCompile(`<span class="card__title">([^<]+)</span>`)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/?actor=ann+lee", []string{"Two", "One"}},
		{"/?actor=Ann+Lee&studio=BAY", []string{"One"}},
		{"/?studio=Bay&platform=JAV&q=thr", []string{"Three"}},
		{"/?actor=Nobody", nil},
	} {
		res, body := s.get(t, tc.path)
		var got []string
		for _, m := range titles.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		if res.StatusCode != http.StatusOK || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %d %q, want %q", tc.path, res.StatusCode, got, tc.want)
		}
	}
	_, body := s.get(t, "/?actor=Ann+Lee&studio=Bay")
	for _, want := range []string{
		`<a class="tag" href="/?studio=Bay">Actor: Ann Lee`,
		`<a class="tag" href="/?actor=Ann&#43;Lee">Studio: Bay`,
		`<a href="/?actor=Ann&#43;Lee&amp;facet=platform&amp;studio=Bay">All platforms</a>`,
		// A new search keeps them.
		`<input type="hidden" name="actor" value="Ann Lee">`, `<input type="hidden" name="studio" value="Bay">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("filtered grid lacks %s", want)
		}
	}

	rows := regexp.MustCompile(`<tr><td class="title"><a href="([^"]+)">([^<]+)</a></td><td class="num">(\d+)</td></tr>`)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/?facet=actor", []string{"Ann Lee 2 /?actor=Ann+Lee", "Bo 1 /?actor=Bo"}},
		{"/?facet=studio&actor=Ann+Lee", []string{"Bay 1 /?actor=Ann+Lee&studio=Bay", "Cove 1 /?actor=Ann+Lee&studio=Cove"}},
		{"/?facet=platform&platform=JAV", []string{"JAV 2 /?platform=JAV", "ทวิต 1 /?platform=%E0%B8%97%E0%B8%A7%E0%B8%B4%E0%B8%95"}},
	} {
		res, body := s.get(t, tc.path)
		var got []string
		for _, m := range rows.FindAllStringSubmatch(body, -1) {
			got = append(got, m[2]+" "+m[3]+" "+html.UnescapeString(m[1]))
		}
		if res.StatusCode != http.StatusOK || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %d\n %q\nwant %q", tc.path, res.StatusCode, got, tc.want)
		}
	}
	for path, want := range map[string]string{
		"/?facet=title":                        "facet must be one of",
		"/?studio=" + strings.Repeat("b", 300): "studio must be at most 256 characters",
	} {
		if res, body := s.get(t, path); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, want) {
			t.Errorf("%s: got %d, want 400 with %q", path, res.StatusCode, want)
		}
	}
}
