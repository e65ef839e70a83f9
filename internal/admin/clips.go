package admin

import (
	"net/http"
	"net/url"
	"strconv"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/httpx"
	"catalog/internal/locale"
)

type clipListPage struct {
	chrome
	Notice    string
	Filter    html.Filter
	Platforms []string
	Clips     []catalog.Clip
	Pager     html.Pager
	Add       clipFormPage
}

// Dashboard answers GET /admin: the clips, newest first, with the same
// search, platform filter and paging parameters as GET /api/clips.
// Anonymous visitors are sent to the login form.
func (s *Service) Dashboard(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	return s.dashboard(w, r, http.StatusOK, s.clipFormPage(s.chrome(r, sess, "clips"), 0, nil, nil, ""))
}

// dashboard shows the clip list with the add form as given (empty, or
// with the values and errors of a rejected post).
func (s *Service) dashboard(w http.ResponseWriter, r *http.Request, status int, add clipFormPage) error {
	q := r.URL.Query()
	f, err := html.ParseFilter(q, s.Platforms)
	if err != nil {
		return err
	}
	clips, total, err := s.Clips.Clips(r.Context(), 0, f.ClipFilter())
	if err != nil {
		return err
	}
	s.render(w, r, status, "clips", clipListPage{
		chrome:    add.chrome,
		Notice:    doneNotice(add.l, "clip", q),
		Filter:    f,
		Platforms: s.Platforms.List(),
		Clips:     clips,
		Pager:     html.NewPager(f, "/admin", total, len(clips)),
		Add:       add,
	})
	return nil
}

// doneNotice confirms the change to a record of kind ("clip", "movie")
// a form redirected from (?added=ID, ?saved=ID or ?deleted=ID). Only ids
// are carried in the URL, so a crafted link cannot put text on the page.
func doneNotice(l *locale.Localizer, kind string, q url.Values) string {
	for _, verb := range []string{"added", "saved", "deleted"} {
		if id, err := catalog.ParseID(q.Get(verb)); err == nil {
			return l.T("notice."+kind+"_"+verb, "ID", strconv.FormatInt(id, 10))
		}
	}
	return ""
}

// formField is one input of the clip form.
type formField struct {
	Name, Label, Hint, Type string
	Value, Error            string
	Required                bool
	Max                     int
	MaxNumber               string // a number input's largest value
	Options                 []string
	// Preview is the shape of a poster URL field's preview,
	// "landscape" or "portrait" ("" for no preview); PreviewSrc is the
	// URL it shows (previewURL), "" for the placeholder.
	Preview, PreviewSrc string
}

type clipFormPage struct {
	chrome
	ID           int64 // 0 when adding
	Heading      string
	Action       string // where the form posts without JavaScript
	API          string // where the script sends the JSON body
	Method       string
	Done         string // where to go after success; {id} is replaced
	Failed       string // lead of the message shown with field errors
	Submit       string
	Message      string
	Fields       []formField
	CoverPreview string
	CoverNote    string
}

// clipForm builds the form for values (field name -> text), marking the
// fields of fieldErrors (in l's language, as formProblem gives them).
func (s *Service) clipForm(l *locale.Localizer, values, fieldErrors map[string]string) []formField {
	var fields []formField
	for _, spec := range catalog.ClipFieldSpecs() {
		f := formField{Name: spec.Name, Label: l.T("clip.field." + spec.Name), Type: "text", Required: spec.Required, Max: spec.MaxRunes,
			Value: values[spec.Name], Error: fieldErrors[spec.Name]}
		if spec.Hint != "" {
			f.Hint = l.T("clip.hint." + spec.Name)
		}
		switch {
		case spec.Platform:
			f.Type, f.Options = "select", s.Platforms.List()
		case spec.URL:
			f.Type = "url"
		case spec.Multiline:
			f.Type = "textarea"
		}
		fields = append(fields, f)
	}
	return fields
}

// coverPreview is the cover the form would store for values, with a
// note on where it comes from (the ids of the notes admin.js shows).
func coverPreview(l *locale.Localizer, values map[string]string) (src, note string) {
	if c := values["cover_url"]; c != "" && catalog.CheckURL(c) == "" {
		return c, l.T("cover.typed")
	}
	if c := catalog.DeriveCover(values["iframe_url"]); c != "" {
		return c, l.T("cover.derived")
	}
	if values["iframe_url"] == "" {
		return "", l.T("cover.none")
	}
	return "", l.T("cover.underivable")
}

// clipFormPage is the add form (id 0) or the edit form of clip id.
func (s *Service) clipFormPage(c chrome, id int64, values, fieldErrors map[string]string, message string) clipFormPage {
	src, note := coverPreview(c.l, values)
	p := clipFormPage{
		chrome:       c,
		ID:           id,
		Heading:      c.l.T("clip.add"),
		Action:       "/admin/clips",
		API:          "/api/clips",
		Method:       http.MethodPost,
		Done:         "/admin?added={id}",
		Failed:       c.l.T("form.fix_fields", "Lead", c.l.T("clip.not_added")),
		Submit:       c.l.T("clip.add_submit"),
		Message:      message,
		Fields:       s.clipForm(c.l, values, fieldErrors),
		CoverPreview: src,
		CoverNote:    note,
	}
	if id != 0 {
		n := strconv.FormatInt(id, 10)
		p.Heading, p.Action, p.API, p.Method = c.l.T("clip.edit", "ID", n), "/admin/clips/"+n, "/api/clips/"+n, http.MethodPatch
		p.Done, p.Failed, p.Submit = "/admin?saved={id}", c.l.T("form.fix_fields", "Lead", c.l.T("clip.not_saved")), c.l.T("form.save")
	}
	return p
}

// clipValues are the form values of a stored clip. A cover that equals
// the derived one is left empty, so that changing the player URL
// re-derives it instead of keeping the old video's picture.
func clipValues(c catalog.Clip) map[string]string {
	v := map[string]string{}
	catalog.EachClipField(&c, func(name, value string) { v[name] = value })
	if c.CoverURL == catalog.DeriveCover(c.IframeURL) {
		v["cover_url"] = ""
	}
	return v
}

// readClipForm reads a posted clip form into the same ClipInput a JSON
// body gives, plus the raw values to show again.
func readClipForm(w http.ResponseWriter, r *http.Request) (catalog.ClipInput, map[string]string, error) {
	if err := readForm(w, r, catalog.MaxClipBody); err != nil {
		return catalog.ClipInput{}, nil, err
	}
	var in catalog.ClipInput
	values := map[string]string{}
	for _, name := range catalog.ClipFields {
		if vs, ok := r.PostForm[name]; ok {
			in.Set(name, vs[0])
			values[name] = vs[0]
		}
	}
	return in, values, nil
}

// AddClip answers POST /admin/clips, the add form without JavaScript. It
// applies the same rules as POST /api/clips.
func (s *Service) AddClip(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	in, values, err := readClipForm(w, r)
	var c catalog.Clip
	if err == nil {
		err = in.Apply(&c, s.Platforms, true)
	}
	if err == nil {
		err = s.Store.CreateClip(r.Context(), &c)
	}
	if err != nil {
		ch := s.chrome(r, sess, "clips")
		fields, message, status, err := formProblem(ch.l, err, "clip.not_added")
		if err != nil {
			return err
		}
		return s.dashboard(w, r, status, s.clipFormPage(ch, 0, values, fields, message))
	}
	return s.done(w, r, sess, "/admin?added="+strconv.FormatInt(c.ID, 10), "clip added", "id", c.ID)
}

// pathClip loads the clip named by the {id} path value.
func (s *Service) pathClip(r *http.Request) (catalog.Clip, error) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return catalog.Clip{}, err
	}
	c, err := s.Store.GetClip(r.Context(), id)
	return c, notFound(err, "There is no clip #%d. It may have been deleted.", id) // problem.no_clip
}

// EditClip answers GET /admin/clips/{id}/edit.
func (s *Service) EditClip(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	c, err := s.pathClip(r)
	if err != nil {
		return err
	}
	s.render(w, r, http.StatusOK, "edit", s.clipFormPage(s.chrome(r, sess, "clips"), c.ID, clipValues(c), nil, ""))
	return nil
}

// UpdateClip answers POST /admin/clips/{id}, the edit form without
// JavaScript (with it, the form sends PATCH /api/clips/{id}). Same rules
// as the PATCH: only the posted fields change, an empty cover re-derives.
func (s *Service) UpdateClip(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	in, values, err := readClipForm(w, r)
	if err == nil {
		_, err = s.Store.UpdateClip(r.Context(), id, func(c *catalog.Clip) error {
			return in.Apply(c, s.Platforms, false)
		})
	}
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return notFound(err, "There is no clip #%d. It may have been deleted.", id) // problem.no_clip
	}
	if err != nil {
		c := s.chrome(r, sess, "clips")
		fields, message, status, err := formProblem(c.l, err, "clip.not_saved")
		if err != nil {
			return err
		}
		s.render(w, r, status, "edit", s.clipFormPage(c, id, values, fields, message))
		return nil
	}
	return s.done(w, r, sess, "/admin?saved="+strconv.FormatInt(id, 10), "clip changed", "id", id)
}

type deletePage struct {
	chrome
	Clip catalog.Clip
}

// ConfirmDelete answers GET /admin/clips/{id}/delete: the question
// before the deletion, a page of its own so that it works without
// JavaScript.
func (s *Service) ConfirmDelete(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	c, err := s.pathClip(r)
	if err != nil {
		return err
	}
	s.render(w, r, http.StatusOK, "delete", deletePage{chrome: s.chrome(r, sess, "clips"), Clip: c})
	return nil
}

// DeleteClip answers POST /admin/clips/{id}/delete, the confirmed form.
func (s *Service) DeleteClip(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.Store.DeleteClip(r.Context(), id)
	}
	if err != nil {
		return notFound(err, "There is no clip #%d. It may have been deleted already.", id) // problem.no_clip_already
	}
	return s.done(w, r, sess, "/admin?deleted="+strconv.FormatInt(id, 10), "clip deleted", "id", id)
}

// Cover answers GET /admin/cover?iframe_url=...: {"cover_url": "..."},
// the cover the service would derive, for the form's live preview. It
// keeps the rule in one place (catalog.DeriveCover) instead of copying
// it into the script. It reads nothing stored, so it needs no session.
func (s *Service) Cover(w http.ResponseWriter, r *http.Request) {
	b := []byte(`{"cover_url":`)
	b = catalog.AppendJSONString(b, catalog.DeriveCover(r.URL.Query().Get("iframe_url")))
	b = append(b, '}')
	w.Header().Set("Cache-Control", "private, max-age=3600")
	httpx.WriteJSON(w, r, http.StatusOK, b)
}
