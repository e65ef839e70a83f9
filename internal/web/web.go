// Package web is the public side of the clip service in HTML: the grid
// of clips at / and one page per clip at /clips/{id}, plus the embedded
// static files (style sheet, script, placeholder cover) that the admin
// pages share. Pages are rendered with html/template, so stored text is
// always escaped, and carry a strict Content-Security-Policy.
package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
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

// Config configures New.
type Config struct {
	Store     catalog.ClipStore
	Platforms *catalog.Platforms
	Logger    *slog.Logger // nil: discard
}

// Pages serves the public HTML pages.
type Pages struct {
	store     catalog.ClipStore
	platforms *catalog.Platforms
	log       *slog.Logger
	assets    *Assets
	views     *Views
}

// New loads the embedded static files and parses the templates once; a
// broken template panics at start rather than on a visitor's request.
func New(cfg Config) *Pages {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	assets := NewAssets()
	return &Pages{
		store:     cfg.Store,
		platforms: cfg.Platforms,
		log:       log,
		assets:    assets,
		views:     NewViews(assets, templateFS, "templates"),
	}
}

// Assets returns the shared static files, for pages built elsewhere
// (the admin console) that link the same style sheet and script.
func (p *Pages) Assets() *Assets { return p.assets }

// Register mounts the public pages and the static files on rt.
func (p *Pages) Register(rt *httpx.Router) {
	rt.HandleFunc(http.MethodGet, "/{$}", p.index)
	rt.HandleFunc(http.MethodGet, "/clips/{id}", p.clip)
	p.assets.register(rt)
}

// Views are page templates sharing one layout. In a template folder,
// files whose names start with "_" hold shared definitions; every other
// file is a page that defines "title" and "content" (and may fill the
// layout's "nav" and "scripts" blocks).
type Views struct {
	pages map[string]*template.Template
}

// NewViews parses this package's layout and partials, the partials of
// dir in fsys, and then each page of dir on its own copy of them. The
// admin console passes its own folder, so both sides share one layout,
// one style sheet and one set of helpers.
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
		panic("web: no page template " + name)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// render writes a public page. Pages revalidate on every visit (cheap
// with the ETag) so that a clip an administrator just changed shows at
// once.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name string, data any, frameSrc ...string) {
	body, err := p.views.Render(name, data)
	if err != nil {
		p.log.Error("render page", "page", name, "err", err)
		p.fail(w, r, catalog.Errorf(catalog.EINTERNAL, "internal error"))
		return
	}
	SetPageHeaders(w.Header(), frameSrc...)
	if status == http.StatusOK {
		w.Header().Set("Cache-Control", "no-cache")
	} else {
		w.Header().Set("Cache-Control", "no-store")
	}
	WriteHTML(w, r, status, body)
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

// fail shows err as a friendly page with its status. Internal errors are
// logged and their text never reaches the visitor.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpx.LogError(p.log, r, err)
	page := struct{ ErrorPage }{NewErrorPage(err, "/", "Back to all clips")}
	body, rerr := p.views.Render("error", page)
	if rerr != nil {
		// The error template is parsed at start and needs nothing but
		// strings; failing here means a bug, so fall back to plain text.
		p.log.Error("render error page", "err", rerr)
		http.Error(w, http.StatusText(page.Status), page.Status)
		return
	}
	SetPageHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	WriteHTML(w, r, page.Status, body)
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
