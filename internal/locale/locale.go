// Package locale is the language of the pages people read: the public
// pages, the admin console and the API reference page (issue 42). The
// JSON APIs, their errors and the CLI stay English and never use it.
//
// Messages live in one TOML file per language under messages/, named by
// its BCP 47 tag (en.toml, th.toml, zh-Hans.toml), in the format of
// github.com/nicksnyder/go-i18n: a table per message id with its plural
// forms ("one", "other") and {{.Name}} placeholders. A translator edits
// those files only; a new file is a new language (see doc.go). English
// is the source and the fallback.
//
// A page picks its language with Pick: an explicit choice (the
// administrator's saved one, the switcher's cookie), then the browser's
// Accept-Language with its q-values, then the operator's default.
package locale

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed messages/*.toml
var messageFS embed.FS

// Source is the tag of the source language, the fallback of every
// message and the language of the JSON APIs.
const Source = "en"

// CookieName is the cookie the language switcher sets.
const CookieName = "lang"

// Catalog is every language's messages, loaded once at start.
type Catalog struct {
	bundle  *i18n.Bundle
	byTag   map[string]*Localizer
	order   []*Localizer // Source first, then by tag
	matcher language.Matcher
	// messages are each language's messages as its file has them.
	messages map[string][]*i18n.Message
	// problems turn the domain's English messages into ids (problems.go).
	problems []problemPattern
}

// Language is one language a page can be shown in.
type Language struct {
	Tag  string // BCP 47: "en", "th", "zh-Hans"
	Name string // its own name for itself: "ไทย"
}

// New loads the embedded message files. A file that does not parse is a
// programming error and panics at start.
func New() *Catalog {
	c, err := load(messageFS, "messages")
	if err != nil {
		panic(err)
	}
	return c
}

// load reads every *.toml of dir in fsys.
func load(fsys fs.FS, dir string) (*Catalog, error) {
	bundle := i18n.NewBundle(language.MustParse(Source))
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, err := fs.Glob(fsys, dir+"/*.toml")
	if err != nil {
		return nil, err
	}
	c := &Catalog{bundle: bundle, byTag: map[string]*Localizer{}, messages: map[string][]*i18n.Message{}}
	for _, f := range files {
		mf, err := bundle.LoadMessageFileFS(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("locale: %s: %w", f, err)
		}
		tag := strings.TrimSuffix(path.Base(f), ".toml")
		if mf.Tag.String() != tag {
			return nil, fmt.Errorf("locale: %s: the file name must be the language tag %s", f, mf.Tag)
		}
		l := &Localizer{cat: c, tag: tag, lt: mf.Tag, loc: i18n.NewLocalizer(bundle, tag), printer: message.NewPrinter(mf.Tag)}
		c.byTag[tag] = l
		c.messages[tag] = mf.Messages
		c.order = append(c.order, l)
	}
	if c.byTag[Source] == nil {
		return nil, fmt.Errorf("locale: no %s.toml in %s", Source, dir)
	}
	slices.SortFunc(c.order, func(a, b *Localizer) int {
		switch {
		case a.tag == Source:
			return -1
		case b.tag == Source:
			return 1
		}
		return strings.Compare(a.tag, b.tag)
	})
	tags := make([]language.Tag, len(c.order))
	for i, l := range c.order {
		tags[i] = l.lt
		l.name = l.T("language.name")
	}
	c.matcher = language.NewMatcher(tags)
	c.problems = c.problemPatterns()
	return c, nil
}

// Languages are the languages of the catalog, the source first.
func (c *Catalog) Languages() []Language {
	out := make([]Language, len(c.order))
	for i, l := range c.order {
		out[i] = Language{Tag: l.tag, Name: l.name}
	}
	return out
}

// Tags lists the tags of the catalog's languages for people, the source
// first: "en, th, zh-Hans".
func (c *Catalog) Tags() string {
	tags := make([]string, len(c.order))
	for i, l := range c.order {
		tags[i] = l.tag
	}
	return strings.Join(tags, ", ")
}

// Supported returns the catalog's spelling of tag and whether the
// catalog has it (case-insensitive: "zh-hans" is "zh-Hans").
func (c *Catalog) Supported(tag string) (string, bool) {
	for _, l := range c.order {
		if strings.EqualFold(l.tag, tag) {
			return l.tag, true
		}
	}
	return "", false
}

// Get returns the localizer of a supported tag, the source's otherwise.
func (c *Catalog) Get(tag string) *Localizer {
	if t, ok := c.Supported(tag); ok {
		return c.byTag[t]
	}
	return c.byTag[Source]
}

// Match returns the best of the catalog's languages for an
// Accept-Language header, honouring its q-values ("th;q=0.5, zh-CN"
// gives zh-Hans), and false when none of them fits.
func (c *Catalog) Match(acceptLanguage string) (string, bool) {
	tags, qs, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil {
		return "", false
	}
	// Tags come sorted by q; q=0 means "not this one".
	var wanted []language.Tag
	for i, t := range tags {
		if qs[i] > 0 {
			wanted = append(wanted, t)
		}
	}
	if len(wanted) == 0 {
		return "", false
	}
	_, i, conf := c.matcher.Match(wanted...)
	if conf == language.No {
		return "", false
	}
	return c.order[i].tag, true
}

// Pick chooses the language of a page: the first supported of explicit
// (an administrator's saved choice; empty ones are skipped), then the
// switcher's cookie, then Accept-Language, then def, then the source.
func (c *Catalog) Pick(r *http.Request, def string, explicit ...string) *Localizer {
	for _, e := range explicit {
		if t, ok := c.Supported(e); ok {
			return c.byTag[t]
		}
	}
	if ck, err := r.Cookie(CookieName); err == nil {
		if t, ok := c.Supported(ck.Value); ok {
			return c.byTag[t]
		}
	}
	if t, ok := c.Match(r.Header.Get("Accept-Language")); ok {
		return c.byTag[t]
	}
	return c.Get(def)
}

// SetCookie remembers tag in the browser for a year.
func SetCookie(w http.ResponseWriter, r *http.Request, tag string) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: tag, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
}
