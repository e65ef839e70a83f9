package html

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"catalog/internal/httpx"
)

// Asset is one embedded static file, served under a name that carries a
// hash of its content so that browsers may keep it for a year: a new
// build with a changed file gets a new name.
type Asset struct {
	URL     string // /static/site.3f2a9c1b0d.css
	payload *httpx.Payload
}

// Assets are the embedded static files by their plain names
// ("site.css"). Pages link them through URL.
type Assets struct {
	byName map[string]*Asset
}

var contentTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
}

// NewAssets loads the embedded static files. The clip service loads
// them once and hands the same Assets to the public pages, the admin
// console and its route table.
func NewAssets() *Assets { return loadAssets(staticFS, "static") }

// loadAssets reads every file of dir in fsys. An unknown extension is a
// programming error and panics at start.
func loadAssets(fsys fs.FS, dir string) *Assets {
	a := &Assets{byName: map[string]*Asset{}}
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
			panic("html: no content type for static file " + name)
		}
		sum := sha256.Sum256(b)
		a.byName[name] = &Asset{
			URL:     "/static/" + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:5]) + ext,
			payload: httpx.NewPayloadAs(b, ct),
		}
	}
	return a
}

// URL returns the hashed URL of a static file. A name that does not
// exist is a template bug and panics when the template runs in a test.
func (a *Assets) URL(name string) string {
	s, ok := a.byName[name]
	if !ok {
		panic("html: no static file " + name)
	}
	return s.URL
}

// Files are the static files, for the route table: one route per file
// (GET Asset.URL), so that any other /static/ path falls through to the
// service's own 404.
func (a *Assets) Files() []*Asset {
	files := make([]*Asset, 0, len(a.byName))
	for _, f := range a.byName {
		files = append(files, f)
	}
	return files
}

// ServeHTTP answers GET f.URL: the file, cacheable for a year.
func (f *Asset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	httpx.WritePayload(w, r, http.StatusOK, f.payload)
}
