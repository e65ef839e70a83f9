package admin

import (
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/html"
)

type movieRow struct {
	ID                          int64
	Name, IDCode, Year, Release string
	Actors, Poster              string
}

type movieListPage struct {
	chrome
	Notice string
	Filter html.Filter
	Movies []movieRow
	Pager  html.Pager
}

// Movies answers GET /admin/movies: the movie catalog with search and
// paging (the parameters of GET /api/movies) and links to add, edit and
// delete movies.
func (s *Service) Movies(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	f, err := html.ParseSearch(r.URL.Query())
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	movies, total, err := s.movies.Movies(r.Context(), 0, catalog.MovieFilter{Terms: f.Terms, Paging: f.Paging}, listedFields)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	c := s.chrome(r, sess, "movies")
	rows := make([]movieRow, len(movies))
	for i, m := range movies {
		rows[i] = movieRow{
			ID: m.ID, Name: m.Name, IDCode: m.IDCode, Year: m.Year, Release: m.Release,
			Actors: m.List(catalog.FieldActor).Joined, Poster: m.Poster1URL,
		}
	}
	s.render(w, r, http.StatusOK, "movies", movieListPage{
		chrome: c,
		Notice: doneNotice(c.l, "movie", r.URL.Query()),
		Filter: f,
		Movies: rows,
		Pager:  html.NewPager(f, "/admin/movies", total, len(movies)),
	})
}

// listedFields are the fields a movieRow shows.
const listedFields = 1<<catalog.FieldTitle | 1<<catalog.FieldIDCode | 1<<catalog.FieldYear |
	1<<catalog.FieldRelease | 1<<catalog.FieldActor | 1<<catalog.FieldPoster1URL
