package catalog

import (
	"math/bits"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MovieField identifies one selectable movie field; the constants are in
// the canonical output order (contract 4.1) and index the field table
// (moviefields.go).
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
	FieldScore
	FieldDoubanID
	FieldHits
	FieldHitsDay
	FieldHitsWeek
	FieldHitsMonth
	FieldEpisodes
	FieldURLPlayer // legacy /api/jav only
	numMovieFields
)

// Name is the field's JSON key.
func (f MovieField) Name() string { return movieSpecs[f].json }

// FieldSet is a set of movie fields.
type FieldSet uint32

// Has reports whether f is in the set.
func (s FieldSet) Has(f MovieField) bool { return s&(1<<f) != 0 }

// AllFields is every field of the endpoint (with URL_player for legacy).
func AllFields(legacy bool) FieldSet {
	all := FieldSet(1<<numMovieFields - 1)
	if !legacy {
		all &^= legacyFields
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
			if movieSpecs[f].json == name && all.Has(f) {
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
		if it != "" && !slices.Contains(clean, it) {
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
	Release    string   // YYYY-MM-DD or ""
	Score      string   // "0.0" to "10.0", or "" (contract 12)
	DoubanID   string   // digits, or "" (contract 12)
	Episodes   []Server // play sources (contract 9); nil when none
	// Health is what the link prober found for the servers (contract
	// 13), read with the episodes and never written by an upsert or an
	// edit; nil until the first check.
	Health []ServerHealth
	// PosterMirror are the served addresses of the posters' copies
	// (contract 13), read with the posters and never written by an
	// upsert or an edit; ServedPoster picks the one to serve.
	PosterMirror [2]string
	// Hits are the stored play counts (contract 12), read with the hit
	// fields and written only by HitStore.AddHits; ServedHits is what
	// is served.
	Hits      Hits
	UpdatedAt time.Time // added or last changed, for /api/jav?h=
}

// servedText is text field f as served: a poster's mirror when it has
// one (contract 13).
func (m *Movie) servedText(f MovieField) string {
	switch f {
	case FieldPoster1URL:
		return m.ServedPoster(1)
	case FieldPoster2URL:
		return m.ServedPoster(2)
	}
	return *movieSpecs[f].text(m)
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
	if msg := CheckID(m.ID); msg != "" {
		fe.Add("id", msg)
	}
	m.normalizeFields(fe)
	m.normalizeEpisodes(fe)
	m.checkFormats(fe)
	if m.Name == "" {
		fe.Add("name", "is required")
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
	sep := 1 // skips the comma before the first key
	if !legacy {
		fs &^= legacyFields
	}
	var hits Hits
	if fs&hitFields != 0 {
		hits = m.ServedHits()
	}
	// Only the fields in fs are visited, lowest first.
	for rest := uint32(fs); rest != 0; rest &= rest - 1 {
		f := MovieField(bits.TrailingZeros32(rest))
		if f >= numMovieFields {
			break
		}
		spec := &movieSpecs[f]
		b = append(b, movieKeys[f][sep:]...)
		sep = 0
		switch spec.kind {
		case kindID:
			b = appendInt(b, m.ID)
		case kindList:
			if legacy {
				b = AppendJSONString(b, m.Lists[spec.list].Joined)
			} else {
				b = append(b, m.Lists[spec.list].jsonOrEmpty()...)
			}
		case kindInt:
			b = appendInt(b, *spec.num(m))
		case kindEpisodes:
			b = AppendServedEpisodesJSON(b, m.Episodes, m.Health)
		case kindPlayer:
			b = append(b, `{"server_data":{"link_embed":`...)
			b = AppendJSONString(b, FirstEmbed(ServedServers(m.Episodes, m.Health)))
			b = append(b, "}}"...)
		case kindURL:
			b = AppendJSONString(b, m.servedText(f))
		case kindHits:
			// A count is a string, as every scalar but the id (contract
			// 4.1).
			b = append(b, '"')
			b = appendInt(b, *spec.hits(&hits))
			b = append(b, '"')
		default:
			b = AppendJSONString(b, *spec.text(m))
		}
	}
	return append(b, '}')
}
