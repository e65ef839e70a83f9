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
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Views are page templates sharing one layout. In a template folder,
// files whose names start with "_" hold shared definitions; every other
// file is a page that defines "title" and "content" (and may fill the
// layout's "nav" and "scripts" blocks).
type Views struct {
	pages map[string]*template.Template
}

// NewViews parses this package's layout and partials, the partials of
// dir in fsys, and then each page of dir on its own copy of them. The
// public pages and the admin console each pass their own folder, so both
// sides share one layout, one style sheet and one set of helpers.
func NewViews(assets *Assets, fsys fs.FS, dir string) *Views {
	base := template.Must(template.New("layout").Funcs(template.FuncMap{
		"asset":    assets.URL,
		"args":     templateArgs,
		"date":     func(t time.Time) string { return t.UTC().Format("2 January 2006") },
		"datetime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"bytes":    humanBytes,
	}).ParseFS(templateFS, "templates/_*.html"))
	if shared, _ := fs.Glob(fsys, dir+"/_*.html"); len(shared) > 0 {
		base = template.Must(base.ParseFS(fsys, shared...))
	}
	files, err := fs.Glob(fsys, dir+"/*.html")
	if err != nil {
		panic(err)
	}
	v := &Views{pages: map[string]*template.Template{}}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".html")
		if strings.HasPrefix(name, "_") {
			continue
		}
		v.pages[name] = template.Must(template.Must(base.Clone()).ParseFS(fsys, f))
	}
	return v
}

// Render executes page name with data into a buffer, so that a template
// error never leaves half a page on the wire.
func (v *Views) Render(name string, data any) ([]byte, error) {
	t, ok := v.pages[name]
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

// NewErrorPage describes err with its status, a heading, a message and a
// way back. Internal errors say nothing of their cause.
func NewErrorPage(err error, backURL, backText string) ErrorPage {
	page := ErrorPage{Status: httpx.ErrorStatus(err), BackURL: backURL, BackText: backText}
	switch {
	case page.Status == http.StatusNotFound:
		page.Heading, page.Message = "Not found", catalog.ErrorMessage(err)
	case page.Status < 500:
		page.Heading, page.Message = "That request did not work", catalog.ErrorMessage(err)
	default:
		page.Heading, page.Message = "Something went wrong on our side", "Please try again in a moment."
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

// humanBytes writes a size for people: 1,536 bytes is "1.5 KiB".
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + string("KMGTPE"[exp]) + "iB"
}
