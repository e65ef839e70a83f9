package admin

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/fetchguard"
)

// sourcesPage is the console's Sources page (contract 10).
type sourcesPage struct {
	chrome
	Notice  string
	Message string
	Errors  map[string]string
	Form    sourceForm
	Sources []catalog.Source
	// Running is the runs in progress in this process and Waiting the
	// sources whose runs wait for a slot; Collecting is false when this
	// process runs no collections.
	Running    []collect.Current
	Waiting    []string
	Collecting bool
	// MatchFields are the names of the match fields, for the settings
	// forms; Settings names the source whose settings form failed.
	MatchFields []string
	Settings    string
	// Types are each source's types and their bindings, by source name;
	// Bindings names the source whose binding form failed.
	Types    map[string]sourceTypes
	Bindings string
	Gones    []catalog.Gone
}

// sourceTypes are a source's types with the counts of its summary.
type sourceTypes struct {
	List          []catalog.SourceType
	Unbound, Kept int
}

type sourceForm struct{ Name, URL, Every, Hours string }

// Sources answers GET /admin/sources: every source with its last run,
// the run in progress, and the forms to add, remove and collect now.
func (s *Service) Sources(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	var notice string
	q := r.URL.Query()
	c := s.chrome(r, sess, "sources")
	switch {
	case q.Get("added") != "":
		notice = c.l.T("notice.source_added", "Name", q.Get("added"))
	case q.Get("removed") != "":
		notice = c.l.T("notice.source_removed", "Name", q.Get("removed"))
	case q.Get("collecting") != "":
		notice = c.l.T("notice.source_collecting", "Name", q.Get("collecting"))
	case q.Get("cancelled") != "":
		notice = c.l.T("notice.source_cancelled", "Name", q.Get("cancelled"))
	case q.Get("set") != "":
		notice = c.l.T("notice.source_set", "Name", q.Get("set"))
	case q.Get("bound") != "":
		notice = c.l.T("notice.source_bound", "Name", q.Get("bound"), "Published", q.Get("published"), "Moved", q.Get("moved"))
	}
	s.sourcesPage(w, r, sess, http.StatusOK, sourcesPage{chrome: c, Notice: notice})
}

func (s *Service) sourcesPage(w http.ResponseWriter, r *http.Request, sess catalog.Session, status int, p sourcesPage) {
	list, err := s.store.ListSources(r.Context())
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	for i := range list {
		list[i].URL = catalog.RedactURL(list[i].URL) // a key in the query stays ours
	}
	p.Sources = list
	p.Types = make(map[string]sourceTypes, len(list))
	for _, src := range list {
		types, err := s.store.SourceTypes(r.Context(), src.Name)
		if err != nil {
			s.fail(w, r, sess, err)
			return
		}
		st := sourceTypes{List: types}
		for _, t := range types {
			if !t.Bound() {
				st.Unbound++
			}
			st.Kept += t.Kept
		}
		p.Types[src.Name] = st
	}
	p.Gones = []catalog.Gone{catalog.GoneKeep, catalog.GoneHide, catalog.GoneDelete}
	p.MatchFields = catalog.MatchFieldNames()
	p.Collecting = s.collector != nil
	if p.Collecting {
		p.Running, p.Waiting = s.collector.Running(), s.collector.Waiting()
	}
	s.render(w, r, status, "sources", p)
}

// AddSource answers POST /admin/sources.
func (s *Service) AddSource(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.postedForm(w, r)
	if !ok {
		return
	}
	form := sourceForm{Name: r.PostFormValue("name"), URL: r.PostFormValue("url"),
		Every: strings.TrimSpace(r.PostFormValue("every")), Hours: strings.TrimSpace(r.PostFormValue("hours"))}
	src, err := parseSourceForm(form)
	if err == nil && s.collector != nil {
		err = checkFetchable(src.URL, s.collector.AllowsPrivate())
	}
	if err == nil {
		err = s.store.AddSource(r.Context(), &src)
	}
	if err == nil {
		s.log.Info("source added", "source", src.Name, "admin", sess.Username)
		redirect(w, r, "/admin/sources?added="+url.QueryEscape(src.Name))
		return
	}
	c := s.chrome(r, sess, "sources")
	fields, message, status, ok := formProblem(c.l, err, "source.not_added")
	if !ok {
		s.fail(w, r, sess, err)
		return
	}
	for k, v := range fields {
		fields[k] = c.l.Problem(v)
	}
	s.sourcesPage(w, r, sess, status, sourcesPage{chrome: c, Message: message, Errors: fields, Form: form})
}

// parseSourceForm reads the add form: every as a duration ("1h", empty
// for only on request), hours as a whole number (empty for 0).
func parseSourceForm(f sourceForm) (catalog.Source, error) {
	fe := catalog.FieldErrors{}
	var every time.Duration
	if f.Every != "" {
		d, err := time.ParseDuration(f.Every)
		if err != nil {
			fe.Add("every", "must be a duration such as 30m or 6h") // problem.duration
		}
		every = d
	}
	hours := 0
	if f.Hours != "" {
		n, err := strconv.Atoi(f.Hours)
		if err != nil {
			fe.Add("hours", "must be a whole number of hours") // problem.whole_hours
		}
		hours = n
	}
	src, err := catalog.NewSource(f.Name, f.URL, every, hours)
	if err != nil || len(fe) > 0 {
		if e, ok := err.(*catalog.Error); ok {
			for k, v := range e.Fields {
				if fe[k] == "" {
					fe.Add(k, v)
				}
			}
		}
		return src, fe.Err()
	}
	return src, nil
}

// checkFetchable refuses a source whose address names a private host
// that this process's runs would refuse (contract 13), saying which flag
// allows it.
func checkFetchable(rawURL string, allowPrivate bool) error {
	if err := fetchguard.CheckURL(rawURL, allowPrivate); err != nil {
		fe := catalog.FieldErrors{}
		fe.Add("url", err.Error()+"; serve's --fetch-allow-private allows it")
		return fe.Err()
	}
	return nil
}

// RemoveSource answers POST /admin/sources/{name}/remove.
func (s *Service) RemoveSource(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	err := s.store.RemoveSource(r.Context(), name)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		err = catalog.Errorf(catalog.ENOTFOUND, "There is no source named %q. It may have been removed already.", name) // problem.no_source_already
	}
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.log.Info("source removed", "source", name, "admin", sess.Username)
	redirect(w, r, "/admin/sources?removed="+url.QueryEscape(name))
}

// CollectSource answers POST /admin/sources/{name}/collect: it asks the
// background collector for a run and returns to the page at once.
func (s *Service) CollectSource(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	_, err := s.store.SourceByName(r.Context(), name)
	switch {
	case catalog.ErrorCode(err) == catalog.ENOTFOUND:
		err = catalog.Errorf(catalog.ENOTFOUND, "There is no source named %q.", name) // problem.no_source
	case err == nil && s.collector == nil:
		err = catalog.Errorf(catalog.EUNAVAILABLE, "This process runs no collections.") // problem.no_collections
	case err == nil && !s.collector.Request(name):
		err = catalog.Errorf(catalog.ECONFLICT, "A run of %s is already waiting or running.", name) // problem.run_waiting
	}
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.log.Info("collection requested", "source", name, "admin", sess.Username)
	redirect(w, r, "/admin/sources?collecting="+url.QueryEscape(name))
}

// CancelSource answers POST /admin/sources/{name}/cancel: the run of
// that source in progress stops at its page (what it wrote stays, and
// the run is recorded as cancelled), or its run waiting is dropped.
func (s *Service) CancelSource(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	var err error
	switch {
	case s.collector == nil:
		err = catalog.Errorf(catalog.EUNAVAILABLE, "This process runs no collections.") // problem.no_collections
	case !s.collector.Cancel(name):
		err = catalog.Errorf(catalog.ENOTFOUND, "No run of %q is in progress or waiting. It may have ended already.", name) // problem.no_run
	}
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.log.Info("collection cancelled", "source", name, "admin", sess.Username)
	redirect(w, r, "/admin/sources?cancelled="+url.QueryEscape(name))
}

// SetSourceSettings answers POST /admin/sources/{name}/settings: the
// match fields checked, preferred, and the interval ("" for 0, the
// instance's).
func (s *Service) SetSourceSettings(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.postedForm(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	set, err := parseSettingsForm(r)
	if err == nil {
		err = s.store.SetSourceSettings(r.Context(), name, set)
	}
	if err == nil {
		s.log.Info("source settings changed", "source", name, "match", set.Match.String(), "preferred", set.Preferred, "interval", set.Interval, "admin", sess.Username)
	}
	s.sourceFormDone(w, r, sess, name, err, "/admin/sources?set="+url.QueryEscape(name), "source.not_set", func(p *sourcesPage) { p.Settings = name })
}

// parseSettingsForm reads a source's settings form.
func parseSettingsForm(r *http.Request) (catalog.SourceSettings, error) {
	var set catalog.SourceSettings
	fe := catalog.FieldErrors{}
	names := catalog.MatchFieldNames()
	for _, v := range r.PostForm["match"] {
		i := slices.Index(names, v)
		if i < 0 {
			fe.Add("match", "holds an unknown field") // problem.match_unknown
			continue
		}
		set.Match |= 1 << i
	}
	set.Preferred = r.PostFormValue("preferred") != ""
	if v := strings.TrimSpace(r.PostFormValue("interval")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			fe.Add("interval", "must be a duration such as 30m or 6h") // problem.duration
		}
		set.Interval = d
	}
	if len(fe) > 0 {
		return set, fe.Err()
	}
	return set, set.Check()
}

// BindSourceType answers POST /admin/sources/{name}/types/{id}: the
// type bound by hand to the local category given, or to skip (contract
// 10); its kept records are published and its movies moved.
func (s *Service) BindSourceType(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.postedForm(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	_, err := s.store.SourceByName(r.Context(), name)
	var res collect.BindResult
	if err == nil {
		var id int64
		if id, err = collect.ParseTypeID(r.PathValue("id")); err == nil {
			category, skip := collect.ParseBinding(r.PostFormValue("category"))
			if category = strings.TrimSpace(category); !skip && category == "" {
				fe := catalog.FieldErrors{}
				fe.Add("category", "is required") // problem.required
				err = fe.Err()
			} else {
				res, err = collect.Bind(r.Context(), s.store, name, id, category, skip, true)
			}
		}
	}
	if err == nil {
		s.log.Info("source type bound", "source", name, "type", r.PathValue("id"), "category", r.PostFormValue("category"),
			"published", res.Published, "moved", res.Moved, "admin", sess.Username)
	}
	s.sourceFormDone(w, r, sess, name, err, "/admin/sources?bound="+url.QueryEscape(name)+"&published="+strconv.Itoa(res.Published)+"&moved="+strconv.Itoa(res.Moved),
		"source.not_bound", func(p *sourcesPage) { p.Bindings = name })
}

// SetSourceGone answers POST /admin/sources/{name}/gone: what full runs
// do with the records the source no longer lists.
func (s *Service) SetSourceGone(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.postedForm(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	src, err := s.store.SourceByName(r.Context(), name)
	var gone catalog.Gone
	if err == nil {
		if gone, err = catalog.ParseGone(r.PostFormValue("gone")); err != nil {
			fe := catalog.FieldErrors{}
			fe.Add("gone", "must be keep, hide or delete") // problem.gone
			err = fe.Err()
		}
	}
	if err == nil {
		err = s.store.SetSourceRules(r.Context(), name, gone, src.Synonyms)
	}
	if err == nil {
		s.log.Info("source gone rule changed", "source", name, "gone", gone, "admin", sess.Username)
	}
	s.sourceFormDone(w, r, sess, name, err, "/admin/sources?set="+url.QueryEscape(name), "source.not_set", func(p *sourcesPage) { p.Bindings = name })
}

// sourceFormDone ends the POST of one source's form: after success a
// redirect to done; a source that is gone is named; a refused form is
// shown again on the Sources page with its problems (notDone is the
// message key when no field is to blame), form marking which form.
func (s *Service) sourceFormDone(w http.ResponseWriter, r *http.Request, sess catalog.Session, name string, err error,
	done, notDone string, form func(*sourcesPage)) {
	if err == nil {
		redirect(w, r, done)
		return
	}
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		err = catalog.Errorf(catalog.ENOTFOUND, "There is no source named %q. It may have been removed already.", name) // problem.no_source_already
	}
	c := s.chrome(r, sess, "sources")
	fields, message, status, ok := formProblem(c.l, err, notDone)
	if !ok {
		s.fail(w, r, sess, err)
		return
	}
	for k, v := range fields {
		fields[k] = c.l.Problem(v)
	}
	p := sourcesPage{chrome: c, Message: message, Errors: fields}
	form(&p)
	s.sourcesPage(w, r, sess, status, p)
}
