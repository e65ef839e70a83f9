package admin

import (
	"net/http"
	"slices"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/locale"
	"catalog/internal/search"
)

type movieRow struct {
	ID                          int64
	Name, IDCode, Year, Release string
	Actors                      []valueLink
	Poster                      string
}

type movieListPage struct {
	chrome
	Notice string
	Filter html.Filter
	movieBrowse
	Movies []movieRow
	Pager  html.Pager
}

// movieBrowse is what the movie list and its facet pages show around
// their rows: the search with its order and filters, the filters in
// force, and the links to every facet under them.
type movieBrowse struct {
	Sorts  []sortOption
	Inputs []filterInput
	Open   bool // a value filter or a year is set: the filters show
	Chips  []html.FilterChip
	Facets []facetLink
}

type sortOption struct {
	Value, Label string
	Selected     bool
}

type filterInput struct{ Param, Label, Value string }

type facetLink struct {
	Label, URL string
	Current    bool
}

// movieFacetFields are the fields the console lists with their counts,
// as GET /api/movies/facets names them (contract 12).
var movieFacetFields = []string{"category", "actor", "director", "studio", "genre", "country", search.FacetYear}

// moviesBase is the console's movie list.
const moviesBase = "/admin/movies"

func newMovieBrowse(l *locale.Localizer, f html.Filter) movieBrowse {
	var b movieBrowse
	for s := catalog.SortNew; s.String() != ""; s++ {
		b.Sorts = append(b.Sorts, sortOption{Value: s.String(), Label: l.T("sort." + s.String()), Selected: s == f.Sort})
	}
	for _, field := range movieFacetFields {
		value := f.Value(field)
		if field == search.FacetYear {
			value = f.Year
		}
		b.Inputs = append(b.Inputs, filterInput{Param: field, Label: l.T("filter." + field), Value: value})
		b.Facets = append(b.Facets, facetLink{Label: l.T("facet." + field), URL: f.Facets(field).URL(moviesBase, 1), Current: f.Facet == field})
		b.Open = b.Open || value != ""
	}
	b.Chips = f.Chips(moviesBase)
	return b
}

// MovieList answers GET /admin/movies: the movie catalog with search,
// filters, orders and paging (the parameters of GET /api/movies) and
// links to add, edit and delete movies; with facet=F, the values of F
// under the other filters with their counts (GET /api/movies/facets).
func (s *Service) MovieList(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	q := r.URL.Query()
	f, err := html.ParseMovieFilter(q)
	if err == nil && q.Get("facet") != "" {
		if f.Facet = q.Get("facet"); !slices.Contains(movieFacetFields, f.Facet) {
			err = catalog.Errorf(catalog.EINVALID, "facet must be one of %s", strings.Join(movieFacetFields, ", ")) // problem.param_one_of
		}
	}
	if err != nil {
		return err
	}
	if f.Facet != "" {
		return s.movieFacet(w, r, sess, f)
	}
	movies, total, err := s.Movies.Movies(r.Context(), 0, f.MovieFilter(), listedFields)
	if err != nil {
		return err
	}
	c := s.chrome(r, sess, "movies")
	rows := make([]movieRow, len(movies))
	for i, m := range movies {
		rows[i] = movieRow{ID: m.ID, Name: m.Name, IDCode: m.IDCode, Year: m.Year, Release: m.Release, Poster: m.Poster1URL}
		for _, a := range m.List(catalog.FieldActor).Items() {
			rows[i].Actors = append(rows[i].Actors, valueLink{Value: a, URL: f.With("actor", a).URL(moviesBase, 1)})
		}
	}
	s.render(w, r, http.StatusOK, "movies", movieListPage{
		chrome:      c,
		Notice:      doneNotice(c.l, "movie", q),
		Filter:      f,
		movieBrowse: newMovieBrowse(c.l, f),
		Movies:      rows,
		Pager:       html.NewPager(f, moviesBase, total, len(movies)),
	})
	return nil
}

type movieFacetPage struct {
	chrome
	Filter html.Filter
	movieBrowse
	Heading string
	Back    string // the list under the same filters
	Rows    []html.FacetRow
	Pager   html.Pager
}

// movieFacet shows the values of f.Facet over the movies f's other
// filters select, most used first, each linking to the list filtered
// on it.
func (s *Service) movieFacet(w http.ResponseWriter, r *http.Request, sess catalog.Session, f html.Filter) error {
	p, err := s.Movies.MovieFacet(r.Context(), 0, f.Facet, f.MovieFilter())
	if err != nil {
		return err
	}
	c := s.chrome(r, sess, "movies")
	s.render(w, r, http.StatusOK, "moviefacet", movieFacetPage{
		chrome:      c,
		Filter:      f,
		movieBrowse: newMovieBrowse(c.l, f),
		Heading:     c.l.T("facet." + f.Facet),
		Back:        f.With("", "").URL(moviesBase, 1),
		Rows:        html.FacetRows(f, moviesBase, p.Values),
		Pager:       html.NewPager(f, moviesBase, p.Total, len(p.Values)),
	})
	return nil
}

// listedFields are the fields a movieRow shows.
const listedFields = 1<<catalog.FieldTitle | 1<<catalog.FieldIDCode | 1<<catalog.FieldYear |
	1<<catalog.FieldRelease | 1<<catalog.FieldActor | 1<<catalog.FieldPoster1URL
