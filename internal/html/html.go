// Package html is the clip service's HTML toolkit, shared by the public
// pages (internal/web) and the admin console (internal/admin): the one
// layout and its partials (pager, search form, error page), the template
// helpers, the embedded static files under content-hashed names, the
// headers every page carries, the error page, and the search filter and
// pager of list pages. Pages are rendered with html/template, so stored
// text is always escaped. It builds on catalog (error codes, paging) and
// httpx (ETags, gzip) only, never on the sites that use it.
package html

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"path"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/locale"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Views are page templates sharing one layout, in every language of a
// locale catalog. In a template folder, files whose names start with
// "_" hold shared definitions; every other file is a page that defines
// "title" and "content" (and may fill the layout's "nav" and "scripts"
// blocks). Every word a template shows comes from the catalog through
// the functions of locale.Localizer.Funcs ({{t "id"}}, {{date .T}}).
type Views struct {
	log   *slog.Logger
	cat   *locale.Catalog
	pages map[string]map[string]*template.Template // by language, then page
}

// NewViews parses this package's layout and partials, the partials of
// dir in fsys, and then each page of dir on its own copy of them, once
// per language of cat. The public pages and the admin console each
// pass their own folder, so both sides share one layout, one style
// sheet and one set of helpers. log hears of template errors (Write).
func NewViews(assets *Assets, cat *locale.Catalog, log *slog.Logger, fsys fs.FS, dir string) *Views {
	funcs := template.FuncMap{
		"asset": assets.URL,
		"args":  templateArgs,
		"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		// languages are the switcher's choices, set per language below.
		"languages": func() []Choice { return nil },
	}
	maps.Copy(funcs, cat.Get(locale.Source).Funcs())
	base := template.Must(template.New("layout").Funcs(funcs).ParseFS(templateFS, "templates/_*.html"))
	if shared, _ := fs.Glob(fsys, dir+"/_*.html"); len(shared) > 0 {
		base = template.Must(base.ParseFS(fsys, shared...))
	}
	files, err := fs.Glob(fsys, dir+"/*.html")
	if err != nil {
		panic(err)
	}
	v := &Views{log: log, cat: cat, pages: map[string]map[string]*template.Template{}}
	for _, lang := range cat.Languages() {
		l := cat.Get(lang.Tag)
		perLang := l.Funcs()
		choices := choicesFor(cat, lang.Tag)
		perLang["languages"] = func() []Choice { return choices }
		v.pages[lang.Tag] = map[string]*template.Template{}
		for _, f := range files {
			name := strings.TrimSuffix(path.Base(f), ".html")
			if strings.HasPrefix(name, "_") {
				continue
			}
			t := template.Must(template.Must(base.Clone()).ParseFS(fsys, f))
			v.pages[lang.Tag][name] = t.Funcs(perLang)
		}
	}
	return v
}

// Choice is one language of the switcher every page shows.
type Choice struct {
	locale.Language
	Current bool
}

func choicesFor(cat *locale.Catalog, current string) []Choice {
	var out []Choice
	for _, l := range cat.Languages() {
		out = append(out, Choice{Language: l, Current: l.Tag == current})
	}
	return out
}

// Catalog is the locale catalog the views speak.
func (v *Views) Catalog() *locale.Catalog { return v.cat }

// Render executes page name in l's language with data into a buffer,
// so that a template error never leaves half a page on the wire.
func (v *Views) Render(l *locale.Localizer, name string, data any) ([]byte, error) {
	t, ok := v.pages[l.Tag()][name]
	if !ok {
		panic("html: no page template " + name)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ErrorPage is what an error page (the "error-page" template) says
// about an error, public or admin.
type ErrorPage struct {
	Status            int
	Heading, Message  string
	BackURL, BackText string
}

// NewErrorPage describes err in l's language with its status, a
// heading, a message and a way back (backText, already in l's
// language). Internal errors say nothing of their cause.
func NewErrorPage(l *locale.Localizer, err error, backURL, backText string) ErrorPage {
	page := ErrorPage{Status: httpx.ErrorStatus(err), BackURL: backURL, BackText: backText}
	switch {
	case page.Status == http.StatusNotFound:
		page.Heading, page.Message = l.T("error.not_found"), l.Problem(catalog.ErrorMessage(err))
	case page.Status < 500:
		page.Heading, page.Message = l.T("error.bad_request"), l.Problem(catalog.ErrorMessage(err))
	default:
		page.Heading, page.Message = l.T("error.internal"), l.T("error.try_again")
	}
	return page
}

// templateArgs builds a map from key/value pairs, so that one partial
// template can serve pages with different data.
func templateArgs(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("args: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("args: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}
