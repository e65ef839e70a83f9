package admin

import (
	"errors"
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
	return chrome{Admin: sess.Username, Section: section, l: s.views.Catalog().Pick(r, s.DefaultLanguage, sess.Language)}
}

// render writes an admin page with the headers every HTML page of the
// service carries (html.Views.Write). Admin pages are never stored by a
// browser or a proxy: they show private state and carry forms. data
// embeds the chrome that gives the page's language.
func (s *Service) render(w http.ResponseWriter, r *http.Request, status int, name string, data interface{ localizer() *locale.Localizer }) {
	l := data.localizer()
	if l == nil {
		l = s.views.Catalog().Pick(r, s.DefaultLanguage)
	}
	s.views.Write(w, r, status, "no-store", l, name, data)
}

// fail shows err as a page with its status; internal errors are logged
// and their text never reaches the page.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, sess catalog.Session, err error) {
	httpx.LogError(s.Logger, r, err)
	c := s.chrome(r, sess, "")
	page := errorPage{c, html.NewErrorPage(c.l, err, "/admin", c.l.T("admin.back_to_clips"))}
	s.render(w, r, page.Status, "error", page)
}

// handler is a console page or form post of a signed-in administrator.
// An error it returns is shown as the error page (fail).
type handler func(w http.ResponseWriter, r *http.Request, sess catalog.Session) error

// signedIn serves h to signed-in administrators; anonymous visitors are
// redirected to the login form.
func (s *Service) signedIn(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.Sessions.Authenticate(r)
		switch {
		case catalog.ErrorCode(err) == catalog.EUNAUTHORIZED:
			redirect(w, r, "/admin/login")
			return
		case err == nil:
			err = h(w, r, sess)
		}
		if err != nil {
			s.fail(w, r, sess, err)
		}
	}
}

// posted is signedIn for a form post whose fields, at most maxFormBytes
// of them, are read before h runs.
func (s *Service) posted(h handler) http.HandlerFunc {
	return s.signedIn(func(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
		if err := readForm(w, r, maxFormBytes); err != nil {
			return err
		}
		return h(w, r, sess)
	})
}

// readForm reads the fields of a posted form of at most limit bytes
// (application/x-www-form-urlencoded, so that the console works without
// JavaScript).
func readForm(w http.ResponseWriter, r *http.Request, limit int64) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	err := r.ParseForm()
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return catalog.Errorf(catalog.ETOOLARGE, "the form is larger than %d KiB", limit>>10) // problem.form_too_large
	case err != nil:
		return catalog.Errorf(catalog.EINVALID, "the form could not be read") // problem.form_unreadable
	}
	return nil
}

// redirect answers 303 to a page. The short body http.Redirect writes is
// HTML too, so it gets the page headers.
func redirect(w http.ResponseWriter, r *http.Request, to string) {
	html.SetPageHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// done logs what an administrator changed and redirects to the page
// that confirms it.
func (s *Service) done(w http.ResponseWriter, r *http.Request, sess catalog.Session, to, msg string, args ...any) error {
	s.Logger.Info(msg, append(args, "admin", sess.Username)...)
	redirect(w, r, to)
	return nil
}

// notFound gives an ENOTFOUND err the page's own message (a problem.*
// message of the locale files); other errors pass unchanged.
func notFound(err error, format string, args ...any) error {
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return catalog.Errorf(catalog.ENOTFOUND, format, args...)
	}
	return err
}

// formProblem splits a refused save into field errors and a message for
// the top of the form, both in l's language, led by the message lead
// ("The clip was not added"); an internal error is returned as it is,
// for the error page.
func formProblem(l *locale.Localizer, err error, lead string) (fields map[string]string, message string, status int, _ error) {
	var e *catalog.Error
	status = httpx.ErrorStatus(err)
	switch {
	case errors.As(err, &e) && len(e.Fields) > 0:
		fields = map[string]string{}
		for k, v := range e.Fields {
			fields[k] = l.Problem(v)
		}
		return fields, l.T("form.fix_fields", "Lead", l.T(lead)), http.StatusUnprocessableEntity, nil
	case status < 500:
		return nil, l.T("form.failed", "Lead", l.T(lead), "Problem", l.Problem(catalog.ErrorMessage(err))), status, nil
	}
	return nil, "", status, err
}
