package admin

import (
	"bytes"
	"errors"
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// contentSecurityPolicy allows nothing inline and nothing foreign except
// cover images (contract 2: HTML pages carry a CSP).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

type dashboardPage struct {
	Username  string
	Clips     []catalog.Clip
	Total     int64
	Platforms []string
	Form      map[string]string // the add form's values, kept on errors
	Errors    map[string]string // field name -> problem
	Message   string
}

// Dashboard answers GET /admin: the newest clips and the add form.
// Anonymous visitors are sent to the login form.
func (s *Service) Dashboard(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	s.dashboard(w, r, http.StatusOK, sess, nil, nil, "")
}

// AddClip answers POST /admin/clips, the add form as a plain
// application/x-www-form-urlencoded post so that it works without
// JavaScript. It applies the same rules as POST /api/clips.
func (s *Service) AddClip(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, catalog.MaxClipBody)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.dashboard(w, r, http.StatusRequestEntityTooLarge, sess, nil, nil, "The form is larger than 64 KiB.")
			return
		}
		s.dashboard(w, r, http.StatusBadRequest, sess, nil, nil, "The form could not be read.")
		return
	}
	var in catalog.ClipInput
	form := map[string]string{}
	for _, name := range catalog.ClipFields {
		if vs, ok := r.PostForm[name]; ok {
			in.Set(name, vs[0])
			form[name] = vs[0]
		}
	}
	var c catalog.Clip
	err := in.Apply(&c, s.platforms, true)
	if err == nil {
		err = s.store.CreateClip(r.Context(), &c)
	}
	if err != nil {
		var e *catalog.Error
		switch {
		case errors.As(err, &e) && len(e.Fields) > 0:
			s.dashboard(w, r, http.StatusUnprocessableEntity, sess, form, e.Fields, "The clip was not added: please fix the fields marked below.")
		case httpx.ErrorStatus(err) < 500:
			s.dashboard(w, r, httpx.ErrorStatus(err), sess, form, nil, "The clip was not added: "+catalog.ErrorMessage(err))
		default:
			s.fail(w, r, err)
		}
		return
	}
	s.log.Info("clip added", "id", c.ID, "admin", sess.Username)
	redirect(w, r, "/admin")
}

// Stylesheet answers GET /admin/static/admin.css (the CSP forbids
// inline styles).
func (s *Service) Stylesheet(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	httpx.WritePayload(typedWriter{w, "text/css; charset=utf-8"}, r, http.StatusOK, httpx.NewPayload(stylesheet))
}

// pageSession authenticates a page request; anonymous visitors are
// redirected to the login form and false is returned.
func (s *Service) pageSession(w http.ResponseWriter, r *http.Request) (catalog.Session, bool) {
	sess, err := s.Authenticate(r)
	switch {
	case err == nil:
		return sess, true
	case catalog.ErrorCode(err) == catalog.EUNAUTHORIZED:
		redirect(w, r, "/admin/login")
	default:
		s.fail(w, r, err)
	}
	return sess, false
}

func (s *Service) dashboard(w http.ResponseWriter, r *http.Request, status int, sess catalog.Session,
	form, fieldErrors map[string]string, message string) {
	clips, total, err := s.store.ListClips(r.Context(), catalog.ClipFilter{
		Paging: catalog.Paging{Page: 1, Limit: newestClips},
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, status, "dashboard", dashboardPage{
		Username:  sess.Username,
		Clips:     clips,
		Total:     total,
		Platforms: s.platforms.List(),
		Form:      form,
		Errors:    fieldErrors,
		Message:   message,
	})
}

// fail logs an unexpected error and shows a page that reveals nothing
// of it.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpx.LogError(s.log, r, err)
	status := httpx.ErrorStatus(err)
	if status < 500 {
		status = http.StatusInternalServerError
	}
	s.render(w, r, status, "error", struct{ Status int }{status})
}

// render writes a page with the security headers every HTML response
// carries. The page is rendered to a buffer first, so a template error
// never leaves half a page behind.
func (s *Service) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("render page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	setPageHeaders(w.Header())
	httpx.WritePayload(typedWriter{w, "text/html; charset=utf-8"}, r, status, httpx.NewPayload(buf.Bytes()))
}

// setPageHeaders sets what every HTML response needs, redirects
// included (their short body is HTML too).
func setPageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "same-origin")
}

// redirect answers 303 to a page.
func redirect(w http.ResponseWriter, r *http.Request, to string) {
	setPageHeaders(w.Header())
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// typedWriter lets httpx.WritePayload (strong ETag, 304, gzip above
// 1 KiB) serve bodies that are not JSON: it swaps the Content-Type just
// before the header goes out.
type typedWriter struct {
	http.ResponseWriter
	contentType string
}

func (t typedWriter) WriteHeader(status int) {
	if t.Header().Get("Content-Type") != "" {
		t.Header().Set("Content-Type", t.contentType)
	}
	t.ResponseWriter.WriteHeader(status)
}

func (t typedWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
