package admin_test

import (
	"context"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// The console's movie list takes the filters and orders of GET
// /api/movies (contract 12), and with facet=F lists F's values under
// the other filters with their counts, most first, each linking to the
// list filtered on it; bad values are a 400 page naming them.
func TestConsoleBrowseMovies(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	batch := []catalog.Movie{
		{Name: "Alpha", Year: "2020", Score: "8.0"},
		{Name: "Beta", Year: "2022", Score: "9.5"},
		{Name: "Gamma", Year: "2024"},
	}
	lists := [][4][]string{ // categories, actors, studios, countries
		{{"Drama"}, {"Ann Lee", "Bo"}, {"S1"}, {"Thailand"}},
		{{"Comedy"}, {"Ann Lee"}, {"S2"}, {"Japan"}},
		{{"Drama"}, {"Cy"}, {"S1"}, {"Thailand"}},
	}
	for i := range batch {
		for j, f := range []catalog.MovieField{catalog.FieldCategories, catalog.FieldActor, catalog.FieldStudio, catalog.FieldCountry} {
			*batch[i].List(f) = catalog.NewList(lists[i][j])
		}
		if err := batch[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.store.UpsertMovies(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`<td class="title"><a href="/admin/movies/\d+/edit">([^<]+)</a>`)
	listed := func(path string) []string {
		t.Helper()
		res, body := c.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: got %d", path, res.StatusCode)
		}
		var out []string
		for _, m := range names.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		return out
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/admin/movies", []string{"Gamma", "Beta", "Alpha"}},
		{"/admin/movies?actor=ann+lee", []string{"Beta", "Alpha"}},
		{"/admin/movies?actor=Ann+Lee&studio=S1", []string{"Alpha"}},
		{"/admin/movies?category=drama&year=2021-2024", []string{"Gamma"}},
		{"/admin/movies?country=Thailand&q=al", []string{"Alpha"}},
		{"/admin/movies?sort=year", []string{"Gamma", "Beta", "Alpha"}},
		{"/admin/movies?sort=score", []string{"Beta", "Alpha", "Gamma"}},
		{"/admin/movies?sort=title", []string{"Alpha", "Beta", "Gamma"}},
		{"/admin/movies?sort=title&category=drama", []string{"Alpha", "Gamma"}},
		{"/admin/movies?actor=Nobody", nil},
	} {
		if got := listed(tc.path); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.path, got, tc.want)
		}
	}

	// The filters in force show, each with a link that removes it; the
	// page's links keep them.
	_, body := c.get("/admin/movies?actor=Ann+Lee&studio=S1&sort=score")
	for _, want := range []string{
		`href="/admin/movies?sort=score&amp;studio=S1">Actor: Ann Lee`,
		`href="/admin/movies?actor=Ann&#43;Lee&amp;sort=score">Studio: S1`,
		`href="/admin/movies?actor=Ann&#43;Lee&amp;facet=country&amp;sort=score&amp;studio=S1">All countries</a>`,
		`<option value="score" selected>`,
		`<option value="title">Title, A to Z</option>`,
		`<details class="filters" open>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("filtered list lacks %s", want)
		}
	}

	// Facets: values with counts, most first then by value, under the
	// other filters; each links to the list filtered on it.
	rows := regexp.MustCompile(`<tr><td class="title"><a href="([^"]+)">([^<]+)</a></td><td class="num">(\d+)</td></tr>`)
	facet := func(path string) []string {
		t.Helper()
		res, body := c.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: got %d", path, res.StatusCode)
		}
		var out []string
		for _, m := range rows.FindAllStringSubmatch(body, -1) {
			out = append(out, m[2]+" "+m[3]+" "+html.UnescapeString(m[1]))
		}
		return out
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/admin/movies?facet=actor", []string{"Ann Lee 2 /admin/movies?actor=Ann+Lee", "Bo 1 /admin/movies?actor=Bo", "Cy 1 /admin/movies?actor=Cy"}},
		{"/admin/movies?facet=studio&category=Drama", []string{"S1 2 /admin/movies?category=Drama&studio=S1"}},
		{"/admin/movies?facet=actor&actor=Bo", []string{"Ann Lee 2 /admin/movies?actor=Ann+Lee", "Bo 1 /admin/movies?actor=Bo", "Cy 1 /admin/movies?actor=Cy"}},
		{"/admin/movies?facet=year&year=2020", []string{"2020 1 /admin/movies?year=2020", "2022 1 /admin/movies?year=2022", "2024 1 /admin/movies?year=2024"}},
		{"/admin/movies?facet=country&sort=score", []string{"Thailand 2 /admin/movies?country=Thailand&sort=score", "Japan 1 /admin/movies?country=Japan&sort=score"}},
	} {
		if got := facet(tc.path); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.path, got, tc.want)
		}
	}
	if _, body := c.get("/admin/movies?facet=actor"); !strings.Contains(body, "<h1 class=\"page-title\">All actors</h1>") || !strings.Contains(body, "Showing 1–3 of 3 values") {
		t.Errorf("facet page heading or count missing")
	}

	for path, want := range map[string]string{
		"/admin/movies?year=20x":                          "year must be",
		"/admin/movies?sort=loudest":                      "sort must be one of",
		"/admin/movies?facet=title":                       "facet must be one of",
		"/admin/movies?actor=" + strings.Repeat("a", 300): "actor must be at most 256 characters",
	} {
		res, body := c.get(path)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, want) {
			t.Errorf("%s: got %d, want 400 with %q", path, res.StatusCode, want)
		}
	}
}
