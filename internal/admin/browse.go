package admin

import (
	"net/url"

	"catalog/internal/catalog"
	"catalog/internal/locale"
)

// browseFields are the list fields of a movie that the movie list
// filters on (contract 12), each with its filter parameter, in the
// field table's order.
var browseFields = []struct {
	field         catalog.MovieField
	member, param string
}{
	{catalog.FieldCategories, "categories", "category"},
	{catalog.FieldActor, "actor", "actor"},
	{catalog.FieldDirector, "director", "director"},
	{catalog.FieldStudio, "studio", "studio"},
	{catalog.FieldGenre, "genre", "genre"},
	{catalog.FieldCountry, "country", "country"},
}

// valueLink is one value of a field, linking to the list filtered on it.
type valueLink struct{ Value, URL string }

// valueLinks are the values of one field of a movie.
type valueLinks struct {
	Label string
	Links []valueLink
}

// movieLinks are m's values of every browse field it has, each linking
// to the console's movie list filtered on that value, in l's language.
func movieLinks(l *locale.Localizer, m catalog.Movie) []valueLinks {
	var out []valueLinks
	for _, bf := range browseFields {
		items := m.List(bf.field).Items()
		if len(items) == 0 {
			continue
		}
		vl := valueLinks{Label: l.T("movie.field." + bf.member)}
		for _, v := range items {
			vl.Links = append(vl.Links, valueLink{Value: v, URL: filteredMovies(bf.param, v)})
		}
		out = append(out, vl)
	}
	return out
}

// filteredMovies is the console's movie list filtered on one value.
func filteredMovies(param, value string) string {
	return "/admin/movies?" + url.Values{param: {value}}.Encode()
}
