package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"catalog/internal/httpx"
)

// asset is one embedded static file, served under a name that carries a
// hash of its content so that browsers may keep it for a year: a new
// build with a changed file gets a new name.
type asset struct {
	URL         string // /static/site.3f2a9c1b0d.css
	contentType string
	payload     *httpx.Payload
}

// Assets are the embedded static files by their plain names
// ("site.css"). Pages link them through URL.
type Assets struct {
	byName map[string]*asset
}

var contentTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
}

// NewAssets loads the embedded static files. The admin console calls it
// too, for the URLs; Pages.Register serves them once for both.
func NewAssets() *Assets { return loadAssets(staticFS, "static") }

// loadAssets reads every file of dir in fsys. An unknown extension is a
// programming error and panics at start.
func loadAssets(fsys fs.FS, dir string) *Assets {
	a := &Assets{byName: map[string]*asset{}}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		name := e.Name()
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			panic(err)
		}
		ext := path.Ext(name)
		ct, ok := contentTypes[ext]
		if !ok {
			panic("web: no content type for static file " + name)
		}
		sum := sha256.Sum256(b)
		a.byName[name] = &asset{
			URL:         "/static/" + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:5]) + ext,
			contentType: ct,
			payload:     httpx.NewPayload(b),
		}
	}
	return a
}

// URL returns the hashed URL of a static file. A name that does not
// exist is a template bug and panics when the template runs in a test.
func (a *Assets) URL(name string) string {
	s, ok := a.byName[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return s.URL
}

// register mounts one route per file, so that any other /static/ path
// falls through to the service's own 404.
func (a *Assets) register(rt *httpx.Router) {
	for _, s := range a.byName {
		rt.HandleFunc(http.MethodGet, s.URL, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			writeAs(w, r, http.StatusOK, s.contentType, s.payload)
		})
	}
}
