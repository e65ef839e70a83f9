package admin

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/locale"
)

// The console edits movies with the import's rules (catalog.Movie.
// Normalize, contract 4.6), so a console edit and an imported record can
// never disagree: an added movie goes through the import's write
// (UpsertMovies), an edit updates the stored row (UpdateMovie). Lists
// are edited as one value per line, episodes as in episodesform.go.

// maxMovieForm bounds a posted movie form: a full synopsis and six full
// lists in UTF-8 fit with room to spare, and so do episodes as large as
// a movie may hold, even with every byte of their URLs percent-encoded.
const maxMovieForm = 256<<10 + 3*catalog.MaxEpisodesBytes

type movieFormPage struct {
	chrome
	ID      int64 // 0 when adding
	Heading string
	Action  string
	Submit  string
	Message string
	// Links are the stored movie's values, each linking to the movie
	// list filtered on it (none when adding).
	Links []valueLinks
	movieFormFields
}

// movieFormFields are the inputs of the movie form in its three parts:
// the movie's own fields in a grid, the posters beside their previews,
// and every server's episodes in an editor as wide as the page.
type movieFormFields struct {
	Fields  []formField
	Posters []formField
	Servers []serverBlock
}

// posterShapes are the shapes of the two posters, as the seed names
// them: poster1 is landscape, poster2 portrait (MacCMS carries poster1
// as vod_pic_slide, the wide slide, and poster2 as vod_pic).
var posterShapes = map[catalog.MovieField]string{
	catalog.FieldPoster1URL: "landscape",
	catalog.FieldPoster2URL: "portrait",
}

// movieForm builds the movie form for values, marking fieldErrors: one
// input per member of the field table, lists as one value per line, in
// l's language.
func movieForm(l *locale.Localizer, values, fieldErrors map[string]string) movieFormFields {
	var form movieFormFields
	for _, spec := range catalog.MovieMemberSpecs() {
		if spec.Kind == catalog.MemberEpisodes {
			form.Servers = episodesForm(l, values, fieldErrors)
			continue
		}
		f := formField{Name: spec.Member, Label: l.T("movie.field." + spec.Member), Type: "text", Max: spec.MaxRunes,
			Required: spec.Field == catalog.FieldTitle, Value: values[spec.Member], Error: fieldErrors[spec.Member]}
		if spec.Hint != "" {
			f.Hint = l.T("movie.hint." + spec.Member)
		}
		switch {
		case spec.Kind == catalog.MemberList:
			f.Type, f.Hint = "textarea", l.T("movie.hint.list")
		case spec.Kind == catalog.MemberInt:
			f.Type, f.MaxNumber = "number", strconv.FormatInt(spec.MaxInt, 10)
		case spec.Multiline:
			f.Type = "textarea"
		case spec.URL:
			f.Type = "url"
		}
		if shape := posterShapes[spec.Field]; shape != "" {
			f.Hint, f.Preview, f.PreviewSrc = l.T("poster.hint_"+shape), shape, previewURL(f.Value)
			form.Posters = append(form.Posters, f)
			continue
		}
		form.Fields = append(form.Fields, f)
	}
	return form
}

// previewURL is what a poster's preview shows for the typed value v:
// v itself when it is an absolute http(s) URL, else "" (the
// placeholder). The page's Content-Security-Policy decides what loads;
// this keeps every other scheme out of the src attribute.
func previewURL(v string) string {
	v = strings.TrimSpace(v)
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(v, " \t\n") {
		return ""
	}
	return v
}

// movieValues are the form values of a stored movie.
func movieValues(m catalog.Movie) map[string]string {
	v := map[string]string{}
	catalog.EachMovieMember(&m, func(name string, mv catalog.MemberValue) {
		switch mv.Kind {
		case catalog.MemberList:
			v[name] = strings.Join(mv.List.Items(), "\n")
		case catalog.MemberEpisodes:
			episodesValues(v, mv.Episodes)
		case catalog.MemberInt:
			if mv.Int != 0 {
				v[name] = strconv.FormatInt(mv.Int, 10)
			}
		default:
			v[name] = mv.Text
		}
	})
	return v
}

// readMovieForm reads a posted movie form into a normalised movie, and
// the raw values to show again. stored are the episodes of the movie
// being edited (nil when adding), whose slugs the form does not show
// but keeps (catalog.KeepEpisodeSlugs).
func readMovieForm(w http.ResponseWriter, r *http.Request, stored []catalog.Server) (catalog.Movie, map[string]string, error) {
	var m catalog.Movie
	if err := readForm(w, r, maxMovieForm); err != nil {
		return m, nil, err
	}
	values := map[string]string{}
	var at []serverAt
	for _, spec := range catalog.MovieMemberSpecs() {
		if spec.Kind == catalog.MemberEpisodes {
			m.Episodes, at = readEpisodesForm(r, values)
			catalog.KeepEpisodeSlugs(m.Episodes, stored)
			continue
		}
		value := r.PostFormValue(spec.Member)
		values[spec.Member] = value
		if list := catalog.MovieList(&m, spec.Member); list != nil {
			*list = catalog.NewList(strings.Split(strings.ReplaceAll(value, "\r\n", "\n"), "\n"))
		} else if text := catalog.MovieText(&m, spec.Member); text != nil {
			*text = value
		} else if num := catalog.MovieInt(&m, spec.Member); num != nil {
			*num = formInt(value)
		}
	}
	err := m.Normalize()
	var e *catalog.Error
	if errors.As(err, &e) && e.Fields != nil {
		episodeFormErrors(e.Fields, at)
	}
	return m, values, err
}

// formInt reads a whole-number member: empty is 0 (unknown), and what
// is not a whole number is -1, which Normalize rejects with the
// member's range.
func formInt(value string) int64 {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func (s *Service) movieFormPage(c chrome, id int64, values, fieldErrors map[string]string, message string) movieFormPage {
	p := movieFormPage{
		chrome:  c,
		ID:      id,
		Heading: c.l.T("movie.add"),
		Action:  "/admin/movies",
		Submit:  c.l.T("movie.add_submit"),
		Message: message,

		movieFormFields: movieForm(c.l, values, fieldErrors),
	}
	if id != 0 {
		p.Heading = c.l.T("movie.edit", "ID", strconv.FormatInt(id, 10))
		p.Action = "/admin/movies/" + strconv.FormatInt(id, 10)
		p.Submit = c.l.T("form.save")
	}
	return p
}

// NewMovie answers GET /admin/movies/new: the empty add form.
func (s *Service) NewMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	s.render(w, r, http.StatusOK, "movieform", s.movieFormPage(s.chrome(r, sess, "movies"), 0, nil, nil, ""))
	return nil
}

// AddMovie answers POST /admin/movies. A movie whose code (or, without
// a code, slug) is already taken is refused: an import would replace
// that movie, and an "add" must never overwrite.
func (s *Service) AddMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	m, values, err := readMovieForm(w, r, nil)
	if err == nil {
		var taken int64
		taken, err = s.Store.MovieIDByKey(r.Context(), m.IDCode, m.Slug)
		switch {
		case err == nil && m.IDCode != "":
			// problem.code_taken
			err = catalog.FieldErrors{"id_code": "is already used by movie #" + strconv.FormatInt(taken, 10) + ": edit that movie instead"}.Err()
		case err == nil:
			// problem.slug_taken
			err = catalog.FieldErrors{"slug": "is already used by movie #" + strconv.FormatInt(taken, 10) + ": choose another slug"}.Err()
		case catalog.ErrorCode(err) == catalog.ENOTFOUND:
			err = s.saveMovie(r, &m)
		}
	}
	if err != nil {
		return s.movieFormFailed(w, r, sess, 0, values, err, "movie.not_added")
	}
	return s.done(w, r, sess, "/admin/movies?added="+strconv.FormatInt(m.ID, 10), "movie added", "id", m.ID)
}

// saveMovie writes one movie the way an import does.
func (s *Service) saveMovie(r *http.Request, m *catalog.Movie) error {
	batch := []catalog.Movie{*m}
	if err := s.Store.UpsertMovies(r.Context(), batch); err != nil {
		return err
	}
	m.ID = batch[0].ID
	return nil
}

func (s *Service) movieFormFailed(w http.ResponseWriter, r *http.Request, sess catalog.Session, id int64, values map[string]string, err error, lead string) error {
	c := s.chrome(r, sess, "movies")
	fields, message, status, ferr := formProblem(c.l, err, lead)
	if ferr != nil || values == nil {
		return err
	}
	s.render(w, r, status, "movieform", s.movieFormPage(c, id, values, fields, message))
	return nil
}

// pathMovie loads the movie named by the {id} path value.
func (s *Service) pathMovie(r *http.Request) (catalog.Movie, error) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return catalog.Movie{}, err
	}
	m, err := s.Store.GetMovie(r.Context(), id)
	return m, notFound(err, "There is no movie #%d. It may have been deleted.", id) // problem.no_movie
}

// EditMovie answers GET /admin/movies/{id}/edit.
func (s *Service) EditMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	m, err := s.pathMovie(r)
	if err != nil {
		return err
	}
	c := s.chrome(r, sess, "movies")
	p := s.movieFormPage(c, m.ID, movieValues(m), nil, "")
	p.Links = movieLinks(c.l, m)
	s.render(w, r, http.StatusOK, "movieform", p)
	return nil
}

// UpdateMovie answers POST /admin/movies/{id}: every field is replaced
// by the form's, except the episodes' slugs, which the form does not
// show: an episode keeps its stored slug. The save is an update of the stored row, never an
// upsert: a movie deleted since the form was loaded gives the form's
// 404 rather than coming back under its old id.
func (s *Service) UpdateMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	stored, err := s.pathMovie(r)
	if err != nil {
		return err
	}
	id := stored.ID
	m, values, err := readMovieForm(w, r, stored.Episodes)
	if err == nil {
		m.ID = id
		err = s.Store.UpdateMovie(r.Context(), &m)
	}
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return notFound(err, "There is no movie #%d. It may have been deleted.", id) // problem.no_movie
	}
	if err != nil {
		return s.movieFormFailed(w, r, sess, id, values, err, "movie.not_saved")
	}
	return s.done(w, r, sess, "/admin/movies?saved="+strconv.FormatInt(m.ID, 10), "movie changed", "id", m.ID)
}

type movieDeletePage struct {
	chrome
	Movie catalog.Movie
}

// ConfirmDeleteMovie answers GET /admin/movies/{id}/delete: the question
// before the deletion, a page of its own so that it works without
// JavaScript.
func (s *Service) ConfirmDeleteMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	m, err := s.pathMovie(r)
	if err != nil {
		return err
	}
	s.render(w, r, http.StatusOK, "moviedelete", movieDeletePage{chrome: s.chrome(r, sess, "movies"), Movie: m})
	return nil
}

// DeleteMovie answers POST /admin/movies/{id}/delete, the confirmed form.
func (s *Service) DeleteMovie(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.Store.DeleteMovie(r.Context(), id)
	}
	if err != nil {
		return notFound(err, "There is no movie #%d. It may have been deleted already.", id) // problem.no_movie_already
	}
	return s.done(w, r, sess, "/admin/movies?deleted="+strconv.FormatInt(id, 10), "movie deleted", "id", id)
}
