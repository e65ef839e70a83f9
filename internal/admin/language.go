package admin

import (
	"net/http"
	"net/url"

	"catalog/internal/catalog"
	"catalog/internal/locale"
)

// SetLanguage answers POST /language, the switcher every page shows
// (form field lang: a tag of the catalog). It remembers the choice in a
// cookie and, for a signed-in administrator, saves it, so that the
// console follows them to other browsers; then it returns to the page
// the form was on. The public pages and the console share it.
func (s *Service) SetLanguage(w http.ResponseWriter, r *http.Request) {
	if err := readForm(w, r, maxFormBytes); err != nil {
		s.fail(w, r, catalog.Session{}, err)
		return
	}
	tag, ok := s.views.Catalog().Supported(r.PostFormValue("lang"))
	if !ok {
		s.fail(w, r, catalog.Session{}, catalog.Errorf(catalog.EINVALID, "lang must be one of: %s", s.views.Catalog().Tags()))
		return
	}
	locale.SetCookie(w, r, tag)
	if sess, err := s.Sessions.Authenticate(r); err == nil {
		if err := s.Store.SetAdminLanguage(r.Context(), sess.AdminID, tag); err != nil {
			s.fail(w, r, sess, err)
			return
		}
	}
	redirect(w, r, backTo(r))
}

// backTo is the page a switcher form was posted from: the path and query
// of a Referer on this host, else the home page. Nothing else is
// followed, so the form cannot send anyone to another site.
func backTo(r *http.Request) string {
	u, err := url.Parse(r.Referer())
	if err != nil || u.Host != r.Host || u.Path == "" || u.Path[0] != '/' || (len(u.Path) > 1 && u.Path[1] == '/') {
		return "/"
	}
	u.Scheme, u.Host, u.User, u.Fragment = "", "", nil, ""
	return u.RequestURI()
}
