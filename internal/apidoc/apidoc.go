// Package apidoc serves a service's OpenAPI document at
// /api/openapi.json and a reference page built from it at /api/docs.
//
// Each service keeps its document as a hand-written JSON file beside
// its route table. The numbers and lists that Go code enforces (page
// limits, text lengths, the configured platforms, the version) are not
// written in that file: it names them as "${Name}" placeholders, and
// Build fills them in from the service's own constants when the service
// starts. So a limit has one source, the constant that enforces it, and
// the document cannot disagree with the code. A placeholder without a
// value, or a value without a placeholder, stops the service at start.
package apidoc

import (
	"bytes"
	"crypto/sha512"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/locale"
)

// Vars are the values of a document's placeholders, by name.
type Vars map[string]any

// placeholder is "${Name}" inside a JSON string. A string that is only a
// placeholder becomes the value itself (a number, a list); one inside
// other text becomes its text.
var (
	wholeValue = regexp.MustCompile(`"\$\{([A-Za-z][A-Za-z0-9]*)\}"`)
	inText     = regexp.MustCompile(`\$\{([A-Za-z][A-Za-z0-9]*)\}`)
)

// Build returns the document template with every placeholder replaced
// by its value from vars. It fails on a placeholder that vars lacks, on
// a var that the template never uses (a limit the document forgot), and
// on a result that is not JSON.
func Build(template []byte, vars Vars) ([]byte, error) {
	used := map[string]bool{}
	var errs []string
	value := func(name string) (any, bool) {
		v, ok := vars[name]
		if !ok {
			errs = append(errs, "no value for ${"+name+"}")
			return nil, false
		}
		used[name] = true
		return v, true
	}
	out := wholeValue.ReplaceAllFunc(template, func(m []byte) []byte {
		v, ok := value(string(m[3 : len(m)-2]))
		if !ok {
			return m
		}
		b, err := json.Marshal(v)
		if err != nil {
			errs = append(errs, err.Error())
			return m
		}
		return b
	})
	out = inText.ReplaceAllFunc(out, func(m []byte) []byte {
		v, ok := value(string(m[2 : len(m)-1]))
		if !ok {
			return m
		}
		text := fmt.Sprint(v)
		if list, ok := v.([]string); ok {
			text = strings.Join(list, ", ")
		}
		// The text lands inside a JSON string: escape it as one.
		quoted := catalog.AppendJSONString(nil, text)
		return quoted[1 : len(quoted)-1]
	})
	for name := range vars {
		if !used[name] {
			errs = append(errs, "${"+name+"} is not used in the document")
		}
	}
	if len(errs) == 0 && !json.Valid(out) {
		errs = append(errs, "the document is not valid JSON")
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return nil, fmt.Errorf("apidoc: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// Property is one member of a schema's properties: its name and its
// schema as JSON.
type Property struct{ Name, Schema string }

// Object writes props as one JSON object in their order, the value of a
// placeholder for a properties object derived from a field table (a
// map would lose the order).
func Object(props []Property) json.RawMessage {
	b := []byte{'{'}
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = catalog.AppendJSONString(b, p.Name)
		b = append(b, ':')
		b = append(b, p.Schema...)
	}
	return append(b, '}')
}

// Docs serves one service's document and its reference page.
type Docs struct {
	document *httpx.Payload
	// pages are the reference page in each language of cat, by tag;
	// lang is the default language (Config.DefaultLanguage).
	pages    map[string]*httpx.Payload
	cat      *locale.Catalog
	lang     string
	assets   map[string]*asset // by served name, "docs.1a2b3c4d5e.js"
	writeErr httpx.ErrorWriter
}

// Route is one GET route of the reference: the service mounts each with
// its own read headers.
type Route struct {
	Path    string
	Handler http.HandlerFunc
}

//go:embed static
var staticFS embed.FS

// asset is one file of the reference page, served under a name that
// carries a hash of its content so that browsers may keep it for a year.
type asset struct {
	integrity string // Subresource Integrity of the bytes, for the page's tags
	payload   *httpx.Payload
}

var assetTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
}

// AssetPrefix is where the page's script and style sheet are served.
const AssetPrefix = "/api/docs/"

// New builds the document from template and vars; a template that does
// not build is a programming error and panics at start (a test builds
// every service's document). writeErr answers unknown asset names in the
// service's error shape. The page's own words come from cat (nil loads
// it) in the reader's language, def for a browser that asks for none of
// cat's; the document itself stays English.
func New(template []byte, vars Vars, writeErr httpx.ErrorWriter, cat *locale.Catalog, def string) *Docs {
	doc, err := Build(template, vars)
	if err != nil {
		panic(err)
	}
	if cat == nil {
		cat = locale.New()
	}
	d := &Docs{document: httpx.NewPayload(doc), assets: map[string]*asset{}, writeErr: writeErr,
		pages: map[string]*httpx.Payload{}, cat: cat, lang: def}
	urls := map[string]string{}
	for _, name := range []string{"docs.css", "docs.js"} {
		b, err := staticFS.ReadFile("static/" + name)
		if err != nil {
			panic(err)
		}
		dot := strings.LastIndexByte(name, '.')
		sum := sha512.Sum384(b)
		served := fmt.Sprintf("%s.%x%s", name[:dot], sum[:5], name[dot:])
		d.assets[served] = &asset{
			integrity: "sha384-" + base64.StdEncoding.EncodeToString(sum[:]),
			payload:   httpx.NewPayloadAs(b, assetTypes[name[dot:]]),
		}
		urls[name] = AssetPrefix + served
		urls[name+".integrity"] = d.assets[served].integrity
	}
	page, err := staticFS.ReadFile("static/docs.html")
	if err != nil {
		panic(err)
	}
	for k, v := range urls {
		page = bytes.ReplaceAll(page, []byte("{{"+k+"}}"), []byte(v))
	}
	for _, lang := range cat.Languages() {
		d.pages[lang.Tag] = httpx.NewPayloadAs(localize(page, cat, lang.Tag), "text/html; charset=utf-8")
	}
	return d
}

var pageText = regexp.MustCompile(`\{\{t:([a-z_.]+)\}\}`)

// localize writes the page in one language: {{lang}} is its tag,
// {{t:id}} a message, {{switch}} the links to the other languages.
func localize(page []byte, cat *locale.Catalog, tag string) []byte {
	l := cat.Get(tag)
	out := pageText.ReplaceAllFunc(page, func(m []byte) []byte {
		return []byte(html.EscapeString(l.T(string(m[4 : len(m)-2]))))
	})
	var sw strings.Builder
	for _, other := range cat.Languages() {
		sw.WriteString(`<a href="/api/docs?lang=` + other.Tag + `" lang="` + other.Tag + `"`)
		if other.Tag == tag {
			sw.WriteString(` aria-current="true"`)
		}
		sw.WriteString(">" + html.EscapeString(other.Name) + "</a>")
	}
	out = bytes.ReplaceAll(out, []byte("{{switch}}"), []byte(sw.String()))
	return bytes.ReplaceAll(out, []byte("{{lang}}"), []byte(tag))
}

// Routes are the reference's GET routes: the document, the page and the
// page's files.
func (d *Docs) Routes() []Route {
	return []Route{
		{"/api/openapi.json", d.serveDocument},
		{"/api/docs", d.servePage},
		{AssetPrefix + "{file}", d.serveAsset},
	}
}

func (d *Docs) serveDocument(w http.ResponseWriter, r *http.Request) {
	httpx.WritePayload(w, r, http.StatusOK, d.document)
}

// PagePolicy is the page's Content-Security-Policy: its own script and
// style sheet (same origin, pinned by integrity attributes), calls to
// its own origin for "try it", nothing else.
const PagePolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

func (d *Docs) servePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", PagePolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Add("Vary", "Accept-Language, Cookie")
	l := d.cat.Pick(r, d.lang, r.URL.Query().Get("lang"))
	httpx.WritePayload(w, r, http.StatusOK, d.pages[l.Tag()])
}

func (d *Docs) serveAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := d.assets[r.PathValue("file")]
	if !ok {
		d.writeErr(w, r, catalog.Errorf(catalog.ENOTFOUND, "no such file: %s", r.URL.Path))
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	httpx.WritePayload(w, r, http.StatusOK, a.payload)
}
