package catalog_test

import (
	"errors"
	"testing"

	"catalog/internal/catalog"
)

// Validation at the door: a slug in Slugify's alphabet, a YYYY year, URLs
// without white space, quotes or angle brackets. Each row of the
// reproduction is refused, naming the field.
func TestMovieFormats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		movie catalog.Movie
		field string
	}{
		{"path slug", catalog.Movie{Name: "A", Slug: "../../etc/passwd"}, "slug"},
		{"upper-case slug", catalog.Movie{Name: "A", Slug: "Summer"}, "slug"},
		{"accented slug", catalog.Movie{Name: "A", Slug: "été"}, "slug"},
		{"slug with a space", catalog.Movie{Name: "A", Slug: "a b"}, "slug"},
		{"float year", catalog.Movie{Name: "A", Year: "1e400"}, "year"},
		{"short year", catalog.Movie{Name: "A", Year: "99"}, "year"},
		{"year range", catalog.Movie{Name: "A", Year: "2019-2020"}, "year"},
		{"tag in a poster", catalog.Movie{Name: "A", Poster1URL: `https://x.example/"><script>alert(1)</script>`}, "poster1_url"},
		{"quote in a poster", catalog.Movie{Name: "A", Poster2URL: "https://x.example/a'b.jpg"}, "poster2_url"},
		{"angle in an embed", catalog.Movie{Name: "A", Episodes: catalog.ShorthandEpisodes("https://x.example/<e>", "")}, "episodes[0].server_data[0].link_embed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.movie
			err := m.Normalize()
			var e *catalog.Error
			if !errors.As(err, &e) || e.Code != catalog.EINVALID || e.Fields[tc.field] == "" || len(e.Fields) != 1 {
				t.Fatalf("got %v, want EINVALID naming %s", err, tc.field)
			}
		})
	}
	for _, ok := range []catalog.Movie{
		{Name: "A", Slug: "summer-in-kyoto-2", Year: "2019"},
		{Name: "A", Slug: "ภาพยนตร์-ไทย", Year: ""},
		{Name: "A", Slug: "東京-物語"},
		{Name: "A", Poster1URL: "https://x.example/a.jpg?w=1&h=2#f"},
	} {
		m := ok
		if err := m.Normalize(); err != nil {
			t.Errorf("%+v: got %v, want it valid", ok, err)
		}
	}
}

// Every slug Slugify derives passes CheckSlug: the rule is its alphabet.
func TestSlugifyOutputPassesCheckSlug(t *testing.T) {
	for _, name := range []string{"Summer in Kyoto", "Nuit d’été", "Straße ØRESUND", "ภาพยนตร์ไทย", "東京物語", "Ἀθῆναι",
		"Москва 2024", "../../etc/passwd", "<script>", "ÆØÅ łódź", "हिन्दी फ़िल्म", ""} {
		if slug := catalog.Slugify(name); catalog.CheckSlug(slug) != "" {
			t.Errorf("Slugify(%q) = %q, which CheckSlug refuses", name, slug)
		}
	}
}
