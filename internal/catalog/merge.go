package catalog

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"catalog/internal/fold"
)

// Merging the same title across sources (contract 10, issue 40): which
// movie of another source or of an import a new record joins, and
// which of its fields it brings.

// Match is a set of the fields a source's new record must share with a
// movie to join it.
type Match uint8

// The match fields. MatchName compares titles by TitleKey; MatchCategory
// and MatchActor are met by any one shared item; MatchDoubanID makes a
// shared Douban id the only way to join. A shared Douban id joins
// whatever the set.
const (
	MatchName Match = 1 << iota
	MatchYear
	MatchCategory
	MatchActor
	MatchDoubanID
)

// DefaultMatch is a source's match fields until an administrator sets
// them: name and year.
const DefaultMatch = MatchName | MatchYear

// matchNames are the names of the match fields, in bit order, as the
// command line, the console and the stores spell them.
var matchNames = [...]string{"name", "year", "category", "actor", "douban_id"}

// MatchFieldNames are the names ParseMatch takes, in order.
func MatchFieldNames() []string { return matchNames[:] }

// String is the set as ParseMatch reads it: names joined with ",".
func (m Match) String() string {
	var names []string
	for i, n := range matchNames {
		if m&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// ParseMatch reads a list of match field names separated by "," (spaces
// allowed). The set must hold name or douban_id: any other set would
// join movies with nothing of their titles in common.
func ParseMatch(s string) (Match, error) {
	var m Match
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := slices.Index(matchNames[:], part)
		if i < 0 {
			return 0, Errorf(EINVALID, "match field %q is not one of %s", part, strings.Join(matchNames[:], ", "))
		}
		m |= 1 << i
	}
	if m&(MatchName|MatchDoubanID) == 0 {
		return 0, Errorf(EINVALID, "the match fields must hold name or douban_id")
	}
	return m, nil
}

// StoredMatch reads a Match as the stores keep it (Match.String):
// DefaultMatch when it does not read, which the stores never write.
func StoredMatch(s string) Match {
	m, err := ParseMatch(s)
	if err != nil {
		return DefaultMatch
	}
	return m
}

// SourceSettings are how a source's records merge and how politely it
// is asked; source add takes the defaults and source set changes them.
type SourceSettings struct {
	// Match: what a new record must share with a movie to join it.
	Match Match
	// Preferred: a joined record's non-empty fields replace the movie's
	// (its name, slug and id_code excepted); otherwise they only fill
	// the movie's empty fields.
	Preferred bool
	// Interval is the least time between two of its page requests; 0:
	// the instance's --collect-interval.
	Interval time.Duration
}

// Matches reports whether field, one of MatchFieldNames, is one of the
// settings' match fields.
func (s SourceSettings) Matches(field string) bool {
	i := slices.Index(matchNames[:], field)
	return i >= 0 && s.Match&(1<<i) != 0
}

// MaxSourceInterval bounds a source's own interval.
const MaxSourceInterval = time.Hour

// DefaultSourceSettings are a new source's settings.
var DefaultSourceSettings = SourceSettings{Match: DefaultMatch}

// Check returns the settings' field errors.
func (s SourceSettings) Check() error {
	fe := FieldErrors{}
	if s.Match&(MatchName|MatchDoubanID) == 0 {
		fe.Add("match", "must hold name or douban_id")
	}
	if s.Match >= 1<<len(matchNames) {
		fe.Add("match", "holds an unknown field")
	}
	if s.Interval < 0 || s.Interval > MaxSourceInterval {
		fe.Add("interval", "must be between 0 (the instance's --collect-interval) and "+MaxSourceInterval.String())
	}
	return fe.Err()
}

// TitleKey is what titles are matched by across sources: the title
// folded (contract 11), then without anything but letters, digits and
// the marks that belong to them, so that case, width, accents,
// traditional and simplified Chinese, spaces and punctuation do not
// keep two spellings of one title apart. "" for a title of nothing
// else, which matches nothing.
func TitleKey(name string) string {
	f := fold.String(name)
	keep := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }
	clean := true
	for _, r := range f {
		if !keep(r) {
			clean = false
			break
		}
	}
	if clean {
		return f
	}
	var b strings.Builder
	b.Grow(len(f))
	for _, r := range f {
		if keep(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// matches reports whether record r may join the stored movie m under
// match: a shared Douban id joins whatever the names; otherwise, unless
// match holds MatchDoubanID, every field of match must agree (titles by
// TitleKey, categories and actors by any one item) and the two must not
// carry different Douban ids.
func (match Match) matches(r, m *Movie) bool {
	if r.DoubanID != "" && r.DoubanID == m.DoubanID {
		return true
	}
	if match&MatchDoubanID != 0 || r.DoubanID != "" && m.DoubanID != "" {
		return false
	}
	if match&MatchName != 0 && (TitleKey(r.Name) == "" || TitleKey(r.Name) != TitleKey(m.Name)) {
		return false
	}
	if match&MatchYear != 0 && r.Year != m.Year {
		return false
	}
	if match&MatchCategory != 0 && !shareItem(r.Lists[movieSpecs[FieldCategories].list], m.Lists[movieSpecs[FieldCategories].list]) {
		return false
	}
	if match&MatchActor != 0 && !shareItem(r.Lists[movieSpecs[FieldActor].list], m.Lists[movieSpecs[FieldActor].list]) {
		return false
	}
	return true
}

// shareItem reports whether a and b have an item in common, folded.
func shareItem(a, b List) bool {
	items := map[string]bool{}
	for _, it := range a.Items() {
		items[fold.String(it)] = true
	}
	for _, it := range b.Items() {
		if items[fold.String(it)] {
			return true
		}
	}
	return false
}

// mergeFields is the movie stored with the fields of record brought in:
// each field the stored movie leaves empty, and every field the record
// has when preferred. The keys (name, slug, id_code) stay the stored
// movie's, and the servers are merged apart (mergeServers).
func mergeFields(stored, record Movie, preferred bool) Movie {
	for f, s := range movieSpecs {
		switch MovieField(f) {
		case FieldTitle, FieldSlug, FieldIDCode:
			continue
		}
		switch s.kind {
		case kindText, kindURL, kindDate:
			to, from := s.text(&stored), s.text(&record)
			if *from != "" && (*to == "" || preferred) {
				*to = *from
			}
		case kindList:
			to, from := &stored.Lists[s.list], record.Lists[s.list]
			if from.Joined != "" && (to.Joined == "" || preferred) {
				*to = from
			}
		case kindInt:
			to, from := s.num(&stored), s.num(&record)
			if *from != 0 && (*to == 0 || preferred) {
				*to = *from
			}
		}
	}
	return stored
}

// keepFilled is a source's own record as it is written over the stored
// movie: a field the record leaves empty keeps what the movie holds (a
// joined source or an administrator filled it), so that a source never
// empties what another brought.
func keepFilled(record, stored Movie) Movie {
	return mergeFields(record, stored, false)
}
