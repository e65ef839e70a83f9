package catalog

import (
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MovieField identifies one selectable movie field; the constants are in
// the canonical output order (contract 4.1).
type MovieField uint8

const (
	FieldID MovieField = iota
	FieldTitle
	FieldSlug
	FieldYear
	FieldPoster1URL
	FieldPoster2URL
	FieldCategories
	FieldActor
	FieldDirector
	FieldStudio
	FieldGenre
	FieldCountry
	FieldSynopsis
	FieldIDCode
	FieldRelease
	FieldURLPlayer // legacy /api/jav only
	numMovieFields
)

var movieFieldNames = [numMovieFields]string{
	"id", "title", "slug", "year", "poster1_url", "poster2_url",
	"categories", "actor", "director", "studio", "genre", "country",
	"synopsis", "id_code", "release", "URL_player",
}

// Name is the field's JSON key.
func (f MovieField) Name() string { return movieFieldNames[f] }

// FieldSet is a set of movie fields.
type FieldSet uint32

// Has reports whether f is in the set.
func (s FieldSet) Has(f MovieField) bool { return s&(1<<f) != 0 }

// AllFields is every field of the endpoint (with URL_player for legacy).
func AllFields(legacy bool) FieldSet {
	all := FieldSet(1<<numMovieFields - 1)
	if !legacy {
		all &^= 1 << FieldURLPlayer
	}
	return all
}

// ParseFields parses the comma-separated fields parameter. Spaces around
// names are ignored, duplicates collapse, "name" is an alias of "title",
// an empty value means every field, an unknown name is an EINVALID error
// that names it.
func ParseFields(s string, legacy bool) (FieldSet, error) {
	var set FieldSet
	all := AllFields(legacy)
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if name == "name" {
			name = "title"
		}
		found := false
		for f := MovieField(0); f < numMovieFields; f++ {
			if movieFieldNames[f] == name && all.Has(f) {
				set |= 1 << f
				found = true
				break
			}
		}
		if !found {
			return 0, Errorf(EINVALID, "fields: unknown field %q", name)
		}
	}
	if set == 0 {
		return all, nil
	}
	return set, nil
}

// The multi-valued movie fields, in canonical order.
const NumLists = 6

// ListNames are the multi-valued fields, index-aligned with Movie.Lists.
var ListNames = [NumLists]string{"categories", "actor", "director", "studio", "genre", "country"}

// List is a multi-valued field kept in both served forms (a JSON array
// for /api/movies, a ", "-joined string for /api/jav), so that neither
// is re-parsed per request.
type List struct {
	JSON   string // `["a","b"]`, `[]` when empty
	Joined string // `a, b`, "" when empty
}

// NewList cleans items (trim, NFC, drop empties and duplicates) and
// builds both forms.
func NewList(items []string) List {
	var clean []string
	for _, it := range items {
		it = CleanText(it)
		if it != "" && !hasString(clean, it) {
			clean = append(clean, it)
		}
	}
	b := []byte{'['}
	for i, it := range clean {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, it)
	}
	b = append(b, ']')
	return List{JSON: string(b), Joined: strings.Join(clean, ", ")}
}

// Movie is one movie record. Name is served as "title".
type Movie struct {
	ID         int64
	Name       string
	Slug       string
	Year       string
	Poster1URL string
	Poster2URL string
	Lists      [NumLists]List
	Synopsis   string
	IDCode     string
	Release    string // YYYY-MM-DD or ""
	LinkEmbed  string
	UpdatedAt  time.Time // added or last changed, for /api/jav?h=
}

// Limits for imported movies.
const (
	MaxMovieNameRunes = 500
	MaxSynopsisRunes  = 20000
	MaxListRunes      = 5000 // one list field, items joined
	MaxShortRunes     = 64   // year, id_code
)

// Normalize cleans and validates an imported movie in place: name is
// required, release must be a real YYYY-MM-DD date or empty, URLs must
// be http(s), a missing slug is derived from the name. Every problem is
// reported by field name.
func (m *Movie) Normalize() error {
	fe := FieldErrors{}
	if m.ID < 0 {
		fe.Add("id", "must be a positive integer")
	}
	text := func(name string, v *string, maxRunes int, multiline bool) {
		*v = CleanText(*v)
		if multiline {
			*v = strings.ReplaceAll(*v, "\r\n", "\n")
		}
		if msg := checkText(*v, maxRunes, multiline); msg != "" {
			fe.Add(name, msg)
		}
	}
	text("name", &m.Name, MaxMovieNameRunes, false)
	if m.Name == "" {
		fe.Add("name", "is required")
	}
	text("slug", &m.Slug, MaxMovieNameRunes, false)
	text("year", &m.Year, MaxShortRunes, false)
	text("synopsis", &m.Synopsis, MaxSynopsisRunes, true)
	text("id_code", &m.IDCode, MaxShortRunes, false)
	m.Release = strings.TrimSpace(m.Release)
	if m.Release != "" {
		if _, err := time.Parse(time.DateOnly, m.Release); err != nil || len(m.Release) != 10 {
			fe.Add("release", "must be a real date as YYYY-MM-DD")
		}
	}
	for _, u := range []struct {
		name string
		v    *string
	}{{"poster1_url", &m.Poster1URL}, {"poster2_url", &m.Poster2URL}, {"link_embed", &m.LinkEmbed}} {
		*u.v = strings.TrimSpace(*u.v)
		if *u.v != "" {
			if msg := CheckURL(*u.v); msg != "" {
				fe.Add(u.name, msg)
			}
		}
	}
	for i, l := range m.Lists {
		// The joined form holds every item, so one check covers them all.
		if msg := checkText(l.Joined, MaxListRunes, false); msg != "" {
			fe.Add(ListNames[i], msg)
		}
	}
	if m.Slug == "" && m.Name != "" {
		m.Slug = Slugify(m.Name)
	}
	return fe.Err()
}

// latinLetters spells the Latin letters that have no decomposition into
// a base letter and marks, so that the slug keeps them as ASCII.
var latinLetters = strings.NewReplacer("ß", "ss", "æ", "ae", "œ", "oe", "ø", "o", "ł", "l",
	"đ", "d", "ð", "d", "þ", "th", "ı", "i", "ħ", "h", "ŧ", "t", "ŀ", "l")

// Slugify derives a URL slug: lower case, letters and digits kept,
// everything else a single dash. Latin letters lose their accents
// (é -> e); letters of other scripts are kept with their marks.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	lastLatin := false
	for _, r := range norm.NFD.String(latinLetters.Replace(strings.ToLower(name))) {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			if !lastLatin {
				b.WriteRune(r) // Thai vowels, Devanagari signs, ...
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			lastLatin = r < 0x80 || unicode.Is(unicode.Latin, r)
			if lastLatin && r >= 0x80 {
				continue // a Latin letter outside ASCII without a base: drop
			}
			b.WriteRune(r)
		default:
			dash = true
			lastLatin = false
		}
	}
	s := norm.NFC.String(b.String())
	if s == "" {
		return "movie"
	}
	return s
}

// AppendJSON appends the movie as a JSON object holding the fields in fs,
// in canonical order. legacy selects the /api/jav form: list fields as
// joined strings, and URL_player when selected.
func (m *Movie) AppendJSON(b []byte, fs FieldSet, legacy bool) []byte {
	b = append(b, '{')
	first := true
	key := func(f MovieField) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, movieFieldNames[f]...)
		b = append(b, '"', ':')
	}
	str := func(f MovieField, v string) {
		if fs.Has(f) {
			key(f)
			b = AppendJSONString(b, v)
		}
	}
	if fs.Has(FieldID) {
		key(FieldID)
		b = appendInt(b, m.ID)
	}
	str(FieldTitle, m.Name)
	str(FieldSlug, m.Slug)
	str(FieldYear, m.Year)
	str(FieldPoster1URL, m.Poster1URL)
	str(FieldPoster2URL, m.Poster2URL)
	for i, l := range m.Lists {
		f := FieldCategories + MovieField(i)
		if !fs.Has(f) {
			continue
		}
		key(f)
		if legacy {
			b = AppendJSONString(b, l.Joined)
		} else if l.JSON == "" {
			b = append(b, "[]"...)
		} else {
			b = append(b, l.JSON...)
		}
	}
	str(FieldSynopsis, m.Synopsis)
	str(FieldIDCode, m.IDCode)
	str(FieldRelease, m.Release)
	if legacy && fs.Has(FieldURLPlayer) {
		key(FieldURLPlayer)
		b = append(b, `{"server_data":{"link_embed":`...)
		b = AppendJSONString(b, m.LinkEmbed)
		b = append(b, "}}"...)
	}
	return append(b, '}')
}
