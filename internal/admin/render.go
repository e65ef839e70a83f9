package admin

import (
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/locale"
)

type errorPage struct {
	chrome
	html.ErrorPage
}

// chrome is what every console page shows around its content, and the
// language the page is written in.
type chrome struct {
	Admin   string // the signed-in username, "" on the login page
	Section string // "clips", "add", "movies": marks the current nav link
	l       *locale.Localizer
}

func (c chrome) localizer() *locale.Localizer { return c.l }

// chrome is the frame of a page for sess in section, in the language of
// the administrator: the saved choice, then the switcher's cookie, then
// Accept-Language, then the default (locale.Catalog.Pick).
func (s *Service) chrome(r *http.Request, sess catalog.Session, section string) chrome {
	return chrome{Admin: sess.Username, Section: section, l: s.views.Catalog().Pick(r, s.lang, sess.Language)}
}

// render writes an admin page with the headers every HTML page of the
// service carries (html.SetPageHeaders). Admin pages are never stored by
// a browser or a proxy: they show private state and carry forms. data
// embeds the chrome that gives the page's language.
func (s *Service) render(w http.ResponseWriter, r *http.Request, status int, name string, data interface{ localizer() *locale.Localizer }) {
	l := data.localizer()
	if l == nil {
		l = s.views.Catalog().Pick(r, s.lang)
	}
	body, err := s.views.Render(l, name, data)
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
	c := s.chrome(r, sess, "")
	page := errorPage{c, html.NewErrorPage(c.l, err, "/admin", c.l.T("admin.back_to_clips"))}
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
