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
func (s *Service) Sources(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	var notice string
	q := r.URL.Query()
	c := s.chrome(r, sess, "sources")
	for _, done := range []string{"added", "removed", "collecting", "cancelled", "set", "bound"} {
		if name := q.Get(done); name != "" {
			notice = c.l.T("notice.source_"+done, "Name", name, "Published", q.Get("published"), "Moved", q.Get("moved"))
			break
		}
	}
	return s.sourcesPage(w, r, http.StatusOK, sourcesPage{chrome: c, Notice: notice})
}

func (s *Service) sourcesPage(w http.ResponseWriter, r *http.Request, status int, p sourcesPage) error {
	list, err := s.Store.ListSources(r.Context())
	if err != nil {
		return err
	}
	for i := range list {
		list[i].URL = catalog.RedactURL(list[i].URL) // a key in the query stays ours
	}
	p.Sources = list
	p.Types = make(map[string]sourceTypes, len(list))
	for _, src := range list {
		types, err := s.Store.SourceTypes(r.Context(), src.Name)
		if err != nil {
			return err
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
	p.Collecting = s.Collector != nil
	if p.Collecting {
		p.Running, p.Waiting = s.Collector.Running(), s.Collector.Waiting()
	}
	s.render(w, r, status, "sources", p)
	return nil
}

// AddSource answers POST /admin/sources.
func (s *Service) AddSource(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	form := sourceForm{Name: r.PostFormValue("name"), URL: r.PostFormValue("url"),
		Every: strings.TrimSpace(r.PostFormValue("every")), Hours: strings.TrimSpace(r.PostFormValue("hours"))}
	src, err := parseSourceForm(form)
	if err == nil && s.Collector != nil {
		err = checkFetchable(src.URL, s.Collector.AllowsPrivate())
	}
	if err == nil {
		err = s.Store.AddSource(r.Context(), &src)
	}
	if err == nil {
		return s.done(w, r, sess, "/admin/sources?added="+url.QueryEscape(src.Name), "source added", "source", src.Name)
	}
	c := s.chrome(r, sess, "sources")
	fields, message, status, err := formProblem(c.l, err, "source.not_added")
	if err != nil {
		return err
	}
	return s.sourcesPage(w, r, status, sourcesPage{chrome: c, Message: message, Errors: fields, Form: form})
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
func (s *Service) RemoveSource(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	if err := s.Store.RemoveSource(r.Context(), name); err != nil {
		return notFound(err, "There is no source named %q. It may have been removed already.", name) // problem.no_source_already
	}
	return s.done(w, r, sess, "/admin/sources?removed="+url.QueryEscape(name), "source removed", "source", name)
}

// CollectSource answers POST /admin/sources/{name}/collect: it asks the
// background collector for a run and returns to the page at once.
func (s *Service) CollectSource(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	_, err := s.Store.SourceByName(r.Context(), name)
	switch {
	case err != nil:
		return notFound(err, "There is no source named %q.", name) // problem.no_source
	case s.Collector == nil:
		return catalog.Errorf(catalog.EUNAVAILABLE, "This process runs no collections.") // problem.no_collections
	case !s.Collector.Request(name):
		return catalog.Errorf(catalog.ECONFLICT, "A run of %s is already waiting or running.", name) // problem.run_waiting
	}
	return s.done(w, r, sess, "/admin/sources?collecting="+url.QueryEscape(name), "collection requested", "source", name)
}

// CancelSource answers POST /admin/sources/{name}/cancel: the run of
// that source in progress stops at its page (what it wrote stays, and
// the run is recorded as cancelled), or its run waiting is dropped.
func (s *Service) CancelSource(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	switch {
	case s.Collector == nil:
		return catalog.Errorf(catalog.EUNAVAILABLE, "This process runs no collections.") // problem.no_collections
	case !s.Collector.Cancel(name):
		return catalog.Errorf(catalog.ENOTFOUND, "No run of %q is in progress or waiting. It may have ended already.", name) // problem.no_run
	}
	return s.done(w, r, sess, "/admin/sources?cancelled="+url.QueryEscape(name), "collection cancelled", "source", name)
}

// SetSourceSettings answers POST /admin/sources/{name}/settings: the
// match fields checked, preferred, and the interval ("" for 0, the
// instance's).
func (s *Service) SetSourceSettings(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	set, err := parseSettingsForm(r)
	if err == nil {
		err = s.Store.SetSourceSettings(r.Context(), name, set)
	}
	if err == nil {
		s.Logger.Info("source settings changed", "source", name, "match", set.Match.String(), "preferred", set.Preferred, "interval", set.Interval, "admin", sess.Username)
	}
	return s.sourceFormDone(w, r, sess, name, err, "/admin/sources?set="+url.QueryEscape(name), "source.not_set", func(p *sourcesPage) { p.Settings = name })
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
func (s *Service) BindSourceType(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	_, err := s.Store.SourceByName(r.Context(), name)
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
				res, err = collect.Bind(r.Context(), s.Store, name, id, category, skip, true)
			}
		}
	}
	if err == nil {
		s.Logger.Info("source type bound", "source", name, "type", r.PathValue("id"), "category", r.PostFormValue("category"),
			"published", res.Published, "moved", res.Moved, "admin", sess.Username)
	}
	return s.sourceFormDone(w, r, sess, name, err, "/admin/sources?bound="+url.QueryEscape(name)+"&published="+strconv.Itoa(res.Published)+"&moved="+strconv.Itoa(res.Moved),
		"source.not_bound", func(p *sourcesPage) { p.Bindings = name })
}

// SetSourceGone answers POST /admin/sources/{name}/gone: what full runs
// do with the records the source no longer lists.
func (s *Service) SetSourceGone(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PathValue("name")
	src, err := s.Store.SourceByName(r.Context(), name)
	var gone catalog.Gone
	if err == nil {
		if gone, err = catalog.ParseGone(r.PostFormValue("gone")); err != nil {
			fe := catalog.FieldErrors{}
			fe.Add("gone", "must be keep, hide or delete") // problem.gone
			err = fe.Err()
		}
	}
	if err == nil {
		err = s.Store.SetSourceRules(r.Context(), name, gone, src.Synonyms)
	}
	if err == nil {
		s.Logger.Info("source gone rule changed", "source", name, "gone", gone, "admin", sess.Username)
	}
	return s.sourceFormDone(w, r, sess, name, err, "/admin/sources?set="+url.QueryEscape(name), "source.not_set", func(p *sourcesPage) { p.Bindings = name })
}

// sourceFormDone ends the POST of one source's form: after success a
// redirect to done; a source that is gone is named; a refused form is
// shown again on the Sources page with its problems (notDone is the
// message key when no field is to blame), form marking which form.
func (s *Service) sourceFormDone(w http.ResponseWriter, r *http.Request, sess catalog.Session, name string, err error,
	done, notDone string, form func(*sourcesPage)) error {
	if err == nil {
		redirect(w, r, done)
		return nil
	}
	err = notFound(err, "There is no source named %q. It may have been removed already.", name) // problem.no_source_already
	c := s.chrome(r, sess, "sources")
	fields, message, status, err := formProblem(c.l, err, notDone)
	if err != nil {
		return err
	}
	p := sourcesPage{chrome: c, Message: message, Errors: fields}
	form(&p)
	return s.sourcesPage(w, r, status, p)
}
