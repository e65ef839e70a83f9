package admin

import (
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/httpx"
)

type errorPage struct {
	chrome
	html.ErrorPage
}

// render writes an admin page with the headers every HTML page of the
// service carries (html.SetPageHeaders). Admin pages are never stored by
// a browser or a proxy: they show private state and carry forms.
func (s *Service) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	body, err := s.views.Render(name, data)
	if err != nil {
		s.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	html.SetPageHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	html.WritePage(w, r, status, body)
}

// fail shows err as a page with its status; internal errors are logged
// and their text never reaches the page.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, sess catalog.Session, err error) {
	httpx.LogError(s.log, r, err)
	page := errorPage{chrome{Admin: sess.Username}, html.NewErrorPage(err, "/admin", "Back to the clips")}
	s.render(w, r, page.Status, "error", page)
}

// pageSession authenticates a page request; anonymous visitors are
// redirected to the login form and false is returned.
func (s *Service) pageSession(w http.ResponseWriter, r *http.Request) (catalog.Session, bool) {
	sess, err := s.sessions.Authenticate(r)
	switch {
	case err == nil:
		return sess, true
	case catalog.ErrorCode(err) == catalog.EUNAUTHORIZED:
		redirect(w, r, "/admin/login")
	default:
		s.fail(w, r, sess, err)
	}
	return sess, false
}

// redirect answers 303 to a page. The short body http.Redirect writes is
// HTML too, so it gets the page headers.
func redirect(w http.ResponseWriter, r *http.Request, to string) {
	html.SetPageHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// postedForm checks the session of a console form post and reads its
// fields, at most maxFormBytes of them; when either fails it has answered
// the request and returns false.
func (s *Service) postedForm(w http.ResponseWriter, r *http.Request) (catalog.Session, bool) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return sess, false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, sess, catalog.Errorf(catalog.EINVALID, "the form could not be read"))
		return sess, false
	}
	return sess, true
}
