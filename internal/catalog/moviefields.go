package catalog

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// The movie field table: the one place a movie field is declared. The
// served JSON (AppendJSON), the fields parameter, the validation
// (Normalize), the import members, the export columns, both engines'
// column lists, scans and values, the console's movie form, the MacCMS
// full record and the OpenAPI schemas are derived from it, so a new
// field is a row here, its MovieField constant and Movie member, plus
// one migration per engine.

// fieldKind says how a field is held, checked and written.
type fieldKind uint8

const (
	kindID       fieldKind = iota // Movie.ID: a JSON number
	kindText                      // cleaned text, checked against maxRunes
	kindURL                       // an absolute http(s) URL or ""
	kindDate                      // YYYY-MM-DD or ""
	kindInt                       // a whole number from 0 to maxInt, 0 when unknown: a JSON number
	kindList                      // a List: a JSON array on /api/movies, joined on /api/jav
	kindEpisodes                  // Movie.Episodes: servers and episodes (contract 9), stored as their JSON form
	kindPlayer                    // URL_player: derived from the episodes, served on /api/jav only
	kindHits                      // a play count (contract 12): served, never imported or edited
)

// movieSpec is one row of the table.
type movieSpec struct {
	json      string    // key on /api/movies and /api/jav
	member    string    // import member, export column and stored column (a list's joined form; its JSON form is member+"_json")
	kind      fieldKind //
	long      bool      // a long stored value (Column.Long)
	legacy    bool      // served on /api/jav only
	maxRunes  int       // kindText
	maxInt    int64     // kindInt
	multiline bool      // kindText: newlines and tabs allowed
	// norm, for a kindText field of a fixed form, gives its stored form
	// and the problem of a value not in that form ("" for none), in
	// place of the length check; pattern is that form as a regular
	// expression, for the OpenAPI documents.
	norm    func(string) (string, string)
	pattern string
	text    func(m *Movie) *string
	num     func(m *Movie) *int64 // kindInt
	hits    func(h *Hits) *int64  // kindHits
	list    int                   // kindList: index in Movie.Lists
	// label and hint name the member in the console's form; without a
	// label the form shows the member's name.
	label, hint string
	// vod is the key of a full MacCMS record (contract 6) that carries
	// the field as it is (a list's items joined with ","), vodXML its
	// element in the XML form, in CDATA when vodCDATA; "" for a field
	// that the record carries otherwise or not at all.
	vod, vodXML string
	vodCDATA    bool
}

// movieSpecs is indexed by MovieField, in canonical output order
// (contract 4.1); the import and export members follow the same order.
var movieSpecs = [numMovieFields]movieSpec{
	FieldID: {json: "id", member: "id", kind: kindID},
	FieldTitle: {json: "title", member: "name", kind: kindText, maxRunes: MaxMovieNameRunes, text: func(m *Movie) *string { return &m.Name },
		label: "Name"},
	FieldSlug: {json: "slug", member: "slug", kind: kindText, maxRunes: MaxMovieNameRunes, text: func(m *Movie) *string { return &m.Slug },
		label: "Slug", hint: "Leave empty to derive it from the name."},
	FieldYear: {json: "year", member: "year", kind: kindText, maxRunes: MaxShortRunes, text: func(m *Movie) *string { return &m.Year },
		label: "Year", vod: "vod_year", vodXML: "year"},
	FieldPoster1URL: {json: "poster1_url", member: "poster1_url", kind: kindURL, text: func(m *Movie) *string { return &m.Poster1URL },
		label: "Landscape poster URL", vod: "vod_pic_slide"},
	FieldPoster2URL: {json: "poster2_url", member: "poster2_url", kind: kindURL, text: func(m *Movie) *string { return &m.Poster2URL },
		label: "Portrait poster URL"},
	FieldCategories: {json: "categories", member: "categories", kind: kindList, long: true, list: 0, label: "Categories"},
	FieldActor: {json: "actor", member: "actor", kind: kindList, long: true, list: 1, label: "Actors",
		vod: "vod_actor", vodXML: "actor", vodCDATA: true},
	FieldDirector: {json: "director", member: "director", kind: kindList, long: true, list: 2, label: "Directors",
		vod: "vod_director", vodXML: "director", vodCDATA: true},
	FieldStudio: {json: "studio", member: "studio", kind: kindList, long: true, list: 3, label: "Studios"},
	FieldGenre:  {json: "genre", member: "genre", kind: kindList, long: true, list: 4, label: "Genres", vod: "vod_class"},
	FieldCountry: {json: "country", member: "country", kind: kindList, long: true, list: 5, label: "Countries",
		vod: "vod_area", vodXML: "area"},
	FieldSynopsis: {json: "synopsis", member: "synopsis", kind: kindText, long: true, maxRunes: MaxSynopsisRunes, multiline: true,
		text: func(m *Movie) *string { return &m.Synopsis }, label: "Synopsis", vod: "vod_content", vodXML: "des", vodCDATA: true},
	FieldIDCode: {json: "id_code", member: "id_code", kind: kindText, maxRunes: MaxShortRunes, text: func(m *Movie) *string { return &m.IDCode },
		label: "Code", hint: "e.g. ABC-123; an import with the same code updates this movie.", vod: "vod_sub", vodXML: "subname", vodCDATA: true},
	FieldRelease: {json: "release", member: "release", kind: kindDate, text: func(m *Movie) *string { return &m.Release },
		label: "Release date", hint: "YYYY-MM-DD, or empty.", vod: "vod_pubdate"},
	// MacCMS records carry the score and the Douban id in fixed places of
	// their own (vod_score, vod_douban_score, vod_douban_id as a number).
	FieldScore: {json: "score", member: "score", kind: kindText, maxRunes: MaxShortRunes, norm: NormalizeScore, pattern: ScorePattern,
		text: func(m *Movie) *string { return &m.Score }, label: "Score", hint: "From 0.0 to 10.0, one decimal; empty when it has none."},
	FieldDoubanID: {json: "douban_id", member: "douban_id", kind: kindText, maxRunes: MaxShortRunes, norm: NormalizeDoubanID, pattern: DoubanIDPattern,
		text: func(m *Movie) *string { return &m.DoubanID }, label: "Douban id",
		hint: "The number in its Douban address (movie.douban.com/subject/NUMBER/); empty when it has none."},
	// The hits have no member: counted by the beacon, never imported,
	// exported or edited; MacCMS records carry them as numbers of their
	// own (vod_hits...).
	FieldHits:      {json: "hits", kind: kindHits, hits: func(h *Hits) *int64 { return &h.Total }},
	FieldHitsDay:   {json: "hits_day", kind: kindHits, hits: func(h *Hits) *int64 { return &h.Day }},
	FieldHitsWeek:  {json: "hits_week", kind: kindHits, hits: func(h *Hits) *int64 { return &h.Week }},
	FieldHitsMonth: {json: "hits_month", kind: kindHits, hits: func(h *Hits) *int64 { return &h.Month }},
	FieldEpisodes:  {json: "episodes", member: "episodes", kind: kindEpisodes, long: true},
	// URL_player is read from the episodes, so it is as long as they are.
	FieldURLPlayer: {json: "URL_player", kind: kindPlayer, long: true, legacy: true},
}

// Derived from the table at init.
var (
	// movieKeys are the fields' JSON keys as AppendJSON writes them,
	// each after a comma.
	movieKeys = func() (keys [numMovieFields]string) {
		for f, s := range movieSpecs {
			keys[f] = `,"` + s.json + `":`
		}
		return keys
	}()
	// legacyFields are served on /api/jav only.
	legacyFields = func() (set FieldSet) {
		for f, s := range movieSpecs {
			if s.legacy {
				set |= 1 << f
			}
		}
		return set
	}()
	movieMembers = func() map[string]*movieSpec {
		members := make(map[string]*movieSpec, len(movieSpecs))
		for i := range movieSpecs {
			if movieSpecs[i].member != "" {
				members[movieSpecs[i].member] = &movieSpecs[i]
			}
		}
		return members
	}()
	movieColumns = func() []MovieColumn {
		var cols []MovieColumn
		for _, s := range movieSpecs {
			switch s.kind {
			case kindID, kindPlayer, kindHits:
				continue // the engines write the key themselves; URL_player is not stored; the hits are hitColumns
			case kindEpisodes:
				cols = append(cols,
					MovieColumn{Name: s.member, Long: s.long,
						Dest:  func(m *Movie) any { return episodesDest{m} },
						Value: func(m *Movie) any { return EpisodesJSON(m.Episodes) }},
					// play_kinds says which MacCMS play groups the movie
					// has (from=CODE), derived and never read back.
					MovieColumn{Name: "play_kinds", Value: func(m *Movie) any { return PlayKinds(m.Episodes) }})
				continue
			case kindList:
				i := s.list
				cols = append(cols,
					MovieColumn{Name: s.member + "_json", Long: s.long,
						Dest:  func(m *Movie) any { return &m.Lists[i].JSON },
						Value: func(m *Movie) any { return m.Lists[i].jsonOrEmpty() }},
					MovieColumn{Name: s.member, Long: s.long,
						Dest:  func(m *Movie) any { return &m.Lists[i].Joined },
						Value: func(m *Movie) any { return m.Lists[i].Joined }})
			case kindInt:
				num := s.num
				cols = append(cols, MovieColumn{Name: s.member, Long: s.long,
					Dest:  func(m *Movie) any { return num(m) },
					Value: func(m *Movie) any { return *num(m) }})
			default:
				text := s.text
				cols = append(cols, MovieColumn{Name: s.member, Long: s.long,
					Dest:  func(m *Movie) any { return text(m) },
					Value: func(m *Movie) any { return *text(m) }})
			}
			if s.member == "name" {
				// name_fold is what searches match (SearchText of the
				// name and the id_code), derived and never read back.
				cols = append(cols, MovieColumn{Name: "name_fold", Value: func(m *Movie) any { return SearchText(m.Name, m.IDCode) }})
				// title_key is what collected records join movies by
				// (TitleKey of the name), derived and never read back.
				cols = append(cols, MovieColumn{Name: "title_key", Value: func(m *Movie) any { return TitleKey(m.Name) }})
			}
		}
		return cols
	}()
)

// ListNames are the multi-valued fields, index-aligned with Movie.Lists.
var ListNames = func() (names [NumLists]string) {
	for _, s := range movieSpecs {
		if s.kind == kindList {
			names[s.list] = s.member
		}
	}
	return names
}()

// jsonOrEmpty is the stored JSON form: an empty list is stored as [] so
// that every read gives a ready-to-serve array.
func (l List) jsonOrEmpty() string {
	if l.JSON == "" {
		return "[]"
	}
	return l.JSON
}

// MovieColumn is one stored column of a movie.
type MovieColumn = Column[Movie]

// MovieColumns returns the stored columns besides id and updated_at, in
// canonical order: each list as its JSON form then its joined form, and
// name_fold and title_key after name. The result is the caller's to keep.
func MovieColumns() []MovieColumn { return slices.Clone(movieColumns) }

// MovieMembers returns the members of a movie record in import and
// export files, in canonical order (contract 4.6); the link_embed and
// link_m3u8 shorthand (ShorthandMembers) is read but never written.
func MovieMembers() []string {
	var members []string
	for _, s := range movieSpecs {
		if s.member != "" {
			members = append(members, s.member)
		}
	}
	return members
}

// ShorthandMembers are the import members that stand for one server
// Main with one episode Full (contract 9): the embed link, then the HLS
// link.
var ShorthandMembers = [2]string{"link_embed", "link_m3u8"}

// MemberKind says how an import reads a movie member.
type MemberKind uint8

const (
	MemberUnknown   MemberKind = iota
	MemberID                   // a positive integer: Movie.ID
	MemberText                 // text: MovieText
	MemberInt                  // a whole number: MovieInt
	MemberList                 // a list of items: MovieList
	MemberEpisodes             // servers and episodes: Movie.Episodes, ParseEpisodes
	MemberShorthand            // link_embed or link_m3u8: ShorthandEpisodes
)

// MovieMemberKind is the kind of the movie member name.
func MovieMemberKind(name string) MemberKind {
	s, ok := movieMembers[name]
	switch {
	case name == ShorthandMembers[0] || name == ShorthandMembers[1]:
		return MemberShorthand
	case !ok:
		return MemberUnknown
	case s.kind == kindID:
		return MemberID
	case s.kind == kindList:
		return MemberList
	case s.kind == kindEpisodes:
		return MemberEpisodes
	case s.kind == kindInt:
		return MemberInt
	}
	return MemberText
}

// MovieText is the text of member name in m; nil unless name is of
// kind MemberText.
func MovieText(m *Movie, name string) *string {
	if s, ok := movieMembers[name]; ok && s.text != nil {
		return s.text(m)
	}
	return nil
}

// MovieInt is the number of member name in m; nil unless name is of
// kind MemberInt.
func MovieInt(m *Movie, name string) *int64 {
	if s, ok := movieMembers[name]; ok && s.num != nil {
		return s.num(m)
	}
	return nil
}

// MovieList is the list of member name in m; nil unless name is of kind
// MemberList.
func MovieList(m *Movie, name string) *List {
	if s, ok := movieMembers[name]; ok && s.kind == kindList {
		return &m.Lists[s.list]
	}
	return nil
}

// MemberValue is the value of one member of a movie, by its kind.
type MemberValue struct {
	Kind     MemberKind
	Text     string   // MemberText
	Int      int64    // MemberInt
	List     *List    // MemberList
	Episodes []Server // MemberEpisodes
}

// EachMovieMember calls fn with every member of m after the id, in
// canonical order (MovieMembers).
func EachMovieMember(m *Movie, fn func(name string, v MemberValue)) {
	for _, s := range movieSpecs {
		switch s.kind {
		case kindID, kindPlayer, kindHits:
		case kindList:
			fn(s.member, MemberValue{Kind: MemberList, List: &m.Lists[s.list]})
		case kindEpisodes:
			fn(s.member, MemberValue{Kind: MemberEpisodes, Episodes: m.Episodes})
		case kindInt:
			fn(s.member, MemberValue{Kind: MemberInt, Int: *s.num(m)})
		default:
			fn(s.member, MemberValue{Kind: MemberText, Text: *s.text(m)})
		}
	}
}

// normalizeFields cleans and checks every field of m by its kind.
func (m *Movie) normalizeFields(fe FieldErrors) {
	for _, s := range movieSpecs {
		switch s.kind {
		case kindText:
			v := s.text(m)
			*v = CleanText(*v)
			if s.multiline {
				*v = strings.ReplaceAll(*v, "\r\n", "\n")
			}
			msg := ""
			if s.norm != nil {
				*v, msg = s.norm(*v)
			} else {
				msg = checkText(*v, s.maxRunes, s.multiline)
			}
			if msg != "" {
				fe.Add(s.member, msg)
			}
		case kindDate:
			v := s.text(m)
			*v = strings.TrimSpace(*v)
			if *v != "" {
				if _, err := time.Parse(time.DateOnly, *v); err != nil || len(*v) != 10 {
					fe.Add(s.member, "must be a real date as YYYY-MM-DD")
				}
			}
		case kindURL:
			v := s.text(m)
			*v = strings.TrimSpace(*v)
			if *v != "" {
				if msg := CheckURL(*v); msg != "" {
					fe.Add(s.member, msg)
				}
			}
		case kindInt:
			if v := *s.num(m); v < 0 || v > s.maxInt {
				fe.Add(s.member, "must be a whole number from 0 to "+strconv.FormatInt(s.maxInt, 10))
			}
		case kindList:
			// The joined form holds every item, so one check covers them all.
			if msg := checkText(m.Lists[s.list].Joined, MaxListRunes, false); msg != "" {
				fe.Add(s.member, msg)
			}
		}
	}
}

// MovieReadColumns returns the stored columns a read scans (those with
// a Dest), then the link health, which only the prober writes, the
// posters' mirrors, which only the mirror writes, and the hits, which
// only AddHits writes.
func MovieReadColumns() []MovieColumn {
	return slices.Concat(ReadColumns(movieColumns), []MovieColumn{healthColumn}, posterMirrorColumns[:], hitColumns[:])
}

// FieldSpec is a field of the table as the packages that derive their
// own lists from it (the console's form, the MacCMS records, the OpenAPI
// documents) see it.
type FieldSpec struct {
	Field     MovieField
	Name      string // the JSON key
	Member    string // the import and export member; "" for URL_player
	Kind      MemberKind
	Legacy    bool  // served on /api/jav only
	MaxRunes  int   // text and list members (0: no rune limit of its own, as for URLs and dates)
	MaxInt    int64 // MemberInt: the largest value
	Multiline bool  // text members whose newlines are kept
	URL       bool  // an absolute http(s) URL or ""
	Date      bool  // YYYY-MM-DD or ""
	// Pattern is the form of a text member whose form is fixed, as a
	// regular expression ("" for free text).
	Pattern string
	// Count is a play count (contract 12): digits, served as a string.
	Count bool
	// Label and Hint are how the console names the member.
	Label, Hint string
	// Vod is the key of a full MacCMS record that carries the field as
	// it is (VodText), VodXML its element, in CDATA when VodCDATA; ""
	// when the record carries it otherwise or not at all.
	Vod, VodXML string
	VodCDATA    bool
}

// movieFieldSpecs is the table as FieldSpecs, in canonical order.
var movieFieldSpecs = func() []FieldSpec {
	out := make([]FieldSpec, 0, numMovieFields)
	for f, s := range movieSpecs {
		spec := FieldSpec{Field: MovieField(f), Name: s.json, Member: s.member, Kind: MovieMemberKind(s.member), Legacy: s.legacy,
			MaxRunes: s.maxRunes, MaxInt: s.maxInt, Multiline: s.multiline, URL: s.kind == kindURL, Date: s.kind == kindDate, Pattern: s.pattern,
			Count: s.kind == kindHits,
			Label: s.label, Hint: s.hint, Vod: s.vod, VodXML: s.vodXML, VodCDATA: s.vodCDATA}
		if s.kind == kindList {
			spec.MaxRunes = MaxListRunes
		}
		if spec.Label == "" {
			spec.Label = strings.ReplaceAll(s.member, "_", " ")
		}
		out = append(out, spec)
	}
	return out
}()

// MovieFieldSpecs lists every field, in canonical order. The result is
// the caller's to keep.
func MovieFieldSpecs() []FieldSpec { return slices.Clone(movieFieldSpecs) }

// MovieMemberSpecs lists every member after the id, in canonical order,
// for forms that edit a whole movie (the console).
func MovieMemberSpecs() []FieldSpec {
	var out []FieldSpec
	for _, spec := range movieFieldSpecs {
		if spec.Member != "" && spec.Kind != MemberID {
			out = append(out, spec)
		}
	}
	return out
}

// List is the list of field f in m; nil unless f is a list field.
func (m *Movie) List(f MovieField) *List {
	if f >= numMovieFields || movieSpecs[f].kind != kindList {
		return nil
	}
	return &m.Lists[movieSpecs[f].list]
}

// VodText is field f of m as a full MacCMS record carries it (FieldSpec.
// Vod): text as it is, a list's items joined with ",", a number in
// decimal ("" when 0, unknown).
func (m *Movie) VodText(f MovieField) string {
	s := &movieSpecs[f]
	switch s.kind {
	case kindList:
		return strings.Join(m.Lists[s.list].Items(), ",")
	case kindInt:
		if n := *s.num(m); n != 0 {
			return strconv.FormatInt(n, 10)
		}
		return ""
	case kindURL:
		return m.servedText(f)
	case kindText, kindDate:
		return *s.text(m)
	}
	return ""
}

// movieColumnFields is, for each of movieColumns, the fields served
// from it: the field whose member it stores (a list's joined and JSON
// forms both belong to the list), and for the episodes also URL_player,
// which is derived from them. Empty for a column no field reads (the
// folded name, the play kinds).
var movieColumnFields = func() []FieldSet {
	var player FieldSet
	for f, s := range movieSpecs {
		if s.kind == kindPlayer {
			player |= 1 << f
		}
	}
	sets := make([]FieldSet, len(movieColumns))
	for i, c := range movieColumns {
		for f, s := range movieSpecs {
			if s.member == "" || (c.Name != s.member && c.Name != s.member+"_json") {
				continue
			}
			sets[i] |= 1 << f
			if s.kind == kindEpisodes {
				sets[i] |= player
			}
		}
	}
	return sets
}()

// MovieFieldColumns returns the stored columns a read must scan to serve
// fields, in MovieReadColumns' order: exactly the columns of those
// fields, derived from the field table, so that a new field needs no
// edit in the engines' keyed reads.
func MovieFieldColumns(fields FieldSet) []MovieColumn {
	var cols []MovieColumn
	var health bool // the served episodes (and URL_player) need the link health
	for i, c := range movieColumns {
		if c.Dest != nil && movieColumnFields[i]&fields != 0 {
			cols = append(cols, c)
			health = health || c.Name == "episodes"
		}
	}
	if health {
		cols = append(cols, healthColumn)
	}
	// The served posters need their mirrors.
	for i, f := range [2]MovieField{FieldPoster1URL, FieldPoster2URL} {
		if fields&(1<<f) != 0 {
			cols = append(cols, posterMirrorColumns[i])
		}
	}
	// Any hit field needs them all: the day of the counts says which
	// are served (Hits.At).
	if fields&hitFields != 0 {
		cols = append(cols, hitColumns[:]...)
	}
	return cols
}
