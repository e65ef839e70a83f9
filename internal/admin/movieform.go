package admin

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"catalog/internal/catalog"
)

// The console edits movies with the import's rules (catalog.Movie.
// Normalize, contract 4.6), through the same store write as an import
// (UpsertMovies), so a console edit and an imported record can never
// disagree. Lists are edited as one value per line.

// maxMovieForm bounds a posted movie form: a full synopsis and six full
// lists in UTF-8 fit with room to spare.
const maxMovieForm = 256 << 10

type movieFormPage struct {
	chrome
	ID      int64 // 0 when adding
	Heading string
	Action  string
	Submit  string
	Message string
	Fields  []formField
}

// movieForm builds the movie form for values, marking fieldErrors.
func movieForm(values, fieldErrors map[string]string) []formField {
	fields := []formField{
		{Name: "name", Label: "Name", Type: "text", Required: true, Max: catalog.MaxMovieNameRunes},
		{Name: "slug", Label: "Slug", Type: "text", Max: catalog.MaxMovieNameRunes, Hint: "Leave empty to derive it from the name."},
		{Name: "id_code", Label: "Code", Type: "text", Max: catalog.MaxShortRunes, Hint: "e.g. ABC-123; an import with the same code updates this movie."},
		{Name: "year", Label: "Year", Type: "text", Max: catalog.MaxShortRunes},
		{Name: "release", Label: "Release date", Type: "text", Hint: "YYYY-MM-DD, or empty."},
		{Name: "poster1_url", Label: "Poster URL", Type: "url"},
		{Name: "poster2_url", Label: "Second poster URL", Type: "url"},
		{Name: "link_embed", Label: "Player URL", Type: "url"},
	}
	for _, name := range catalog.ListNames {
		fields = append(fields, formField{Name: name, Label: listLabel(name), Type: "textarea", Max: catalog.MaxListRunes, Hint: "One per line."})
	}
	fields = append(fields, formField{Name: "synopsis", Label: "Synopsis", Type: "textarea", Max: catalog.MaxSynopsisRunes})
	for i := range fields {
		fields[i].Value = values[fields[i].Name]
		fields[i].Error = fieldErrors[fields[i].Name]
	}
	return fields
}

func listLabel(name string) string {
	switch name {
	case "actor":
		return "Actors"
	case "director":
		return "Directors"
	case "studio":
		return "Studios"
	case "genre":
		return "Genres"
	case "country":
		return "Countries"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// movieValues are the form values of a stored movie.
func movieValues(m catalog.Movie) map[string]string {
	v := map[string]string{
		"name": m.Name, "slug": m.Slug, "id_code": m.IDCode, "year": m.Year, "release": m.Release,
		"poster1_url": m.Poster1URL, "poster2_url": m.Poster2URL, "link_embed": m.LinkEmbed, "synopsis": m.Synopsis,
	}
	for i, name := range catalog.ListNames {
		var items []string
		json.Unmarshal([]byte(m.Lists[i].JSON), &items) // the store's own JSON array
		v[name] = strings.Join(items, "\n")
	}
	return v
}

// readMovieForm reads a posted movie form into a normalised movie, and
// the raw values to show again.
func readMovieForm(w http.ResponseWriter, r *http.Request) (catalog.Movie, map[string]string, error) {
	var m catalog.Movie
	r.Body = http.MaxBytesReader(w, r.Body, maxMovieForm)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return m, nil, catalog.Errorf(catalog.ETOOLARGE, "the form is larger than 256 KiB")
		}
		return m, nil, catalog.Errorf(catalog.EINVALID, "the form could not be read")
	}
	values := map[string]string{}
	for _, f := range movieForm(nil, nil) {
		values[f.Name] = r.PostFormValue(f.Name)
	}
	m = catalog.Movie{
		Name: values["name"], Slug: values["slug"], IDCode: values["id_code"], Year: values["year"],
		Release: values["release"], Poster1URL: values["poster1_url"], Poster2URL: values["poster2_url"],
		LinkEmbed: values["link_embed"], Synopsis: values["synopsis"],
	}
	for i, name := range catalog.ListNames {
		m.Lists[i] = catalog.NewList(strings.Split(strings.ReplaceAll(values[name], "\r\n", "\n"), "\n"))
	}
	return m, values, m.Normalize()
}

func (s *Service) movieFormPage(sess catalog.Session, id int64, values, fieldErrors map[string]string, message string) movieFormPage {
	p := movieFormPage{
		chrome:  chrome{Admin: sess.Username, Section: "movies"},
		ID:      id,
		Heading: "Add a movie",
		Action:  "/admin/movies",
		Submit:  "Add movie",
		Message: message,
		Fields:  movieForm(values, fieldErrors),
	}
	if id != 0 {
		p.Heading = "Edit movie #" + strconv.FormatInt(id, 10)
		p.Action = "/admin/movies/" + strconv.FormatInt(id, 10)
		p.Submit = "Save changes"
	}
	return p
}

// NewMovie answers GET /admin/movies/new: the empty add form.
func (s *Service) NewMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, "movieform", s.movieFormPage(sess, 0, nil, nil, ""))
}

// AddMovie answers POST /admin/movies. A movie whose code (or, without
// a code, slug) is already taken is refused: an import would replace
// that movie, and an "add" must never overwrite.
func (s *Service) AddMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	m, values, err := readMovieForm(w, r)
	if err == nil {
		var taken int64
		taken, err = s.store.MovieIDByKey(r.Context(), m.IDCode, m.Slug)
		switch {
		case err == nil && m.IDCode != "":
			err = catalog.FieldErrors{"id_code": "is already used by movie #" + strconv.FormatInt(taken, 10) + ": edit that movie instead"}.Err()
		case err == nil:
			err = catalog.FieldErrors{"slug": "is already used by movie #" + strconv.FormatInt(taken, 10) + ": choose another slug"}.Err()
		case catalog.ErrorCode(err) == catalog.ENOTFOUND:
			err = s.saveMovie(r, &m)
		}
	}
	if err != nil {
		s.movieFormFailed(w, r, sess, 0, values, err, "The movie was not added")
		return
	}
	s.log.Info("movie added", "id", m.ID, "admin", sess.Username)
	redirect(w, r, "/admin/movies?added="+strconv.FormatInt(m.ID, 10))
}

// saveMovie writes one movie the way an import does.
func (s *Service) saveMovie(r *http.Request, m *catalog.Movie) error {
	batch := []catalog.Movie{*m}
	if err := s.store.UpsertMovies(r.Context(), batch); err != nil {
		return err
	}
	m.ID = batch[0].ID
	return nil
}

func (s *Service) movieFormFailed(w http.ResponseWriter, r *http.Request, sess catalog.Session, id int64, values map[string]string, err error, lead string) {
	fields, message, status, ok := formProblem(err, lead)
	if !ok || values == nil {
		s.fail(w, r, sess, err)
		return
	}
	s.render(w, r, status, "movieform", s.movieFormPage(sess, id, values, fields, message))
}

// pathMovie loads the movie named by the {id} path value.
func (s *Service) pathMovie(r *http.Request) (catalog.Movie, error) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return catalog.Movie{}, err
	}
	m, err := s.store.GetMovie(r.Context(), id)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return m, catalog.Errorf(catalog.ENOTFOUND, "There is no movie #%d. It may have been deleted.", id)
	}
	return m, err
}

// EditMovie answers GET /admin/movies/{id}/edit.
func (s *Service) EditMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	m, err := s.pathMovie(r)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "movieform", s.movieFormPage(sess, m.ID, movieValues(m), nil, ""))
}

// UpdateMovie answers POST /admin/movies/{id}: every field is replaced
// by the form's, as an import record with this id would.
func (s *Service) UpdateMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	old, err := s.pathMovie(r)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	m, values, err := readMovieForm(w, r)
	if err == nil {
		m.ID = old.ID
		err = s.saveMovie(r, &m)
	}
	if err != nil {
		s.movieFormFailed(w, r, sess, old.ID, values, err, "The movie was not saved")
		return
	}
	s.log.Info("movie changed", "id", m.ID, "admin", sess.Username)
	redirect(w, r, "/admin/movies?saved="+strconv.FormatInt(m.ID, 10))
}

type movieDeletePage struct {
	chrome
	Movie catalog.Movie
}

// ConfirmDeleteMovie answers GET /admin/movies/{id}/delete: the question
// before the deletion, a page of its own so that it works without
// JavaScript.
func (s *Service) ConfirmDeleteMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	m, err := s.pathMovie(r)
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "moviedelete", movieDeletePage{chrome: chrome{Admin: sess.Username, Section: "movies"}, Movie: m})
}

// DeleteMovie answers POST /admin/movies/{id}/delete, the confirmed form.
func (s *Service) DeleteMovie(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.store.DeleteMovie(r.Context(), id)
	}
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		err = catalog.Errorf(catalog.ENOTFOUND, "There is no movie #%d. It may have been deleted already.", id)
	}
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.log.Info("movie deleted", "id", id, "admin", sess.Username)
	redirect(w, r, "/admin/movies?deleted="+strconv.FormatInt(id, 10))
}
