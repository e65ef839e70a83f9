package catalog

import (
	"context"
	"slices"
	"strings"

	"catalog/internal/fold"
)

// Category bindings (contract 10): each source's types, by the source's
// type_id, are bound to a local category or to skip. A record is
// published under its type's category; a record of a skipped type is
// not collected; a record of a type not bound yet is kept with its
// source, not shown, until its type is bound.

// SourceType is one of a source's types and its binding.
type SourceType struct {
	ID   int64  // the source's type_id
	Name string // the source's type_name
	// Category is the local category the type is bound to; "" when it
	// is not bound (or Skip).
	Category string
	Skip     bool
	// ByHand: an operator bound it; auto-binding never changes it.
	ByHand bool
	// Kept is how many records of the type are kept, not shown, because
	// the type is not bound.
	Kept int
}

// Bound reports whether records of t have somewhere to go.
func (t SourceType) Bound() bool { return t.Skip || t.Category != "" }

// Synonym is an operator's rule: a remote type named Remote is bound to
// the local category Local.
type Synonym struct{ Local, Remote string }

// ParseSynonyms reads rules written "LOCAL=REMOTE", one a line or
// separated by commas.
func ParseSynonyms(s string) ([]Synonym, error) {
	var out []Synonym
	for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' }) {
		local, remote, ok := strings.Cut(line, "=")
		local, remote = CleanText(local), CleanText(remote)
		if !ok || local == "" || remote == "" {
			return nil, Errorf(EINVALID, "synonym %q: write LOCAL=REMOTE, both names", strings.TrimSpace(line))
		}
		out = append(out, Synonym{Local: local, Remote: remote})
	}
	return out, nil
}

// FormatSynonyms is the stored form of rules: one "LOCAL=REMOTE" a line.
func FormatSynonyms(rules []Synonym) string {
	lines := make([]string, len(rules))
	for i, r := range rules {
		lines[i] = r.Local + "=" + r.Remote
	}
	return strings.Join(lines, "\n")
}

// synonymTable is the shipped table of common spellings of the same
// type, in Chinese and English: a type named by any of a row binds to
// the row's local category (the first that exists, else the row's
// first name). Names are compared folded (contract 11), so case,
// width and traditional characters do not matter.
var synonymTable = [][]string{
	{"电影", "电影片", "影片", "Movies", "Movie", "Film", "Films"},
	{"电视剧", "连续剧", "剧集", "电视", "TV", "TV Series", "TV Shows", "Series"},
	{"综艺", "综艺片", "综艺节目", "Variety", "Variety Show", "Variety Shows"},
	{"动漫", "动画", "动漫片", "动画片", "卡通", "Anime", "Animation", "Cartoon", "Cartoons"},
	{"纪录片", "记录片", "纪录", "Documentary", "Documentaries"},
	{"短剧", "微短剧", "Short Drama", "Short Dramas"},
	{"体育", "体育赛事", "Sports", "Sport"},
}

// AutoBind is the local category for a remote type named remote, by
// contract 10's order: a local category of the same folded name; else
// the first operator's rule naming it; else the shipped synonym table.
// "" when none applies: the type stays unbound.
func AutoBind(remote string, local []string, rules []Synonym) string {
	key := fold.String(CleanText(remote))
	if key == "" {
		return ""
	}
	existing := func(name string) string {
		k := fold.String(name)
		if i := slices.IndexFunc(local, func(l string) bool { return fold.String(l) == k }); i >= 0 {
			return local[i]
		}
		return ""
	}
	if c := existing(remote); c != "" {
		return c
	}
	for _, r := range rules {
		if fold.String(r.Remote) == key {
			return r.Local
		}
	}
	for _, row := range synonymTable {
		if !slices.ContainsFunc(row, func(s string) bool { return fold.String(s) == key }) {
			continue
		}
		for _, name := range row {
			if c := existing(name); c != "" {
				return c
			}
		}
		return row[0]
	}
	return ""
}

// WithCategory is m with its first category set to category (a
// collected movie's type), the others kept.
func WithCategory(m Movie, category string) Movie {
	items := MovieList(&m, "categories").Items()
	if len(items) > 0 {
		items = items[1:]
	}
	*MovieList(&m, "categories") = NewList(append([]string{category}, items...))
	return m
}

// MovedCategory is m with the category from replaced by to where it
// stands, or put first when m does not have it (rebinding a type moves
// its movies).
func MovedCategory(m Movie, from, to string) Movie {
	items := MovieList(&m, "categories").Items()
	if i := slices.Index(items, from); i >= 0 && from != "" {
		items[i] = to
	} else {
		items = append([]string{to}, items...)
	}
	*MovieList(&m, "categories") = NewList(items)
	return m
}

// WithoutSourceServers is m without the servers that source's joined
// record put there (servers as its link keeps them, nil when not known).
func WithoutSourceServers(m Movie, source string, servers []string) Movie {
	m.Episodes = slices.DeleteFunc(slices.Clone(m.Episodes), func(s Server) bool { return isSourceServer(s.Name, source, servers) })
	return m
}

// Gone is what a full run does with a collected record its source no
// longer lists (contract 10).
type Gone string

const (
	// GoneKeep leaves the movie as it is (the default).
	GoneKeep Gone = "keep"
	// GoneHide takes the movie out of the catalog and keeps it with its
	// source, not shown; a joined record's servers are taken out.
	GoneHide Gone = "hide"
	// GoneDelete deletes the movie; a joined record's servers are taken
	// out.
	GoneDelete Gone = "delete"
)

// ParseGone reads keep, hide or delete; "" is keep.
func ParseGone(s string) (Gone, error) {
	switch g := Gone(strings.TrimSpace(s)); g {
	case "":
		return GoneKeep, nil
	case GoneKeep, GoneHide, GoneDelete:
		return g, nil
	}
	return "", Errorf(EINVALID, "must be keep, hide or delete, got %q", s)
}

// CollectedRecord is one record a source's runs wrote: the movie it
// became, and whether it joined another's.
type CollectedRecord struct {
	VodID   int64
	MovieID int64
	Joined  bool
	Servers []string // a joined record's servers (SourceLink.Servers)
	TypeID  int64
}

// BindingStore keeps the bindings of sources' types, the records kept
// and not shown, and answers which records a source's runs wrote.
type BindingStore interface {
	// SourceTypes returns source's types by type_id, each with the
	// count of its records kept because it is not bound.
	SourceTypes(ctx context.Context, source string) ([]SourceType, error)
	// PutSourceTypes stores types (their names and bindings). A type
	// bound by hand keeps its binding unless the new one is ByHand too.
	PutSourceTypes(ctx context.Context, source string, types []SourceType) error
	// KeepRecords stores records not shown, each under TypeID; gone:
	// hidden because the source no longer lists it.
	KeepRecords(ctx context.Context, source string, records []CollectedMovie, gone bool) error
	// KeptRecords returns the records kept because typeID is not bound.
	KeptRecords(ctx context.Context, source string, typeID int64) ([]CollectedMovie, error)
	// DropKept forgets the kept records of these vod_ids, if any.
	DropKept(ctx context.Context, source string, vodIDs []int64) error
	// KeptVodIDs returns the vod_ids of every record of source kept,
	// each with whether it is kept as gone (hidden).
	KeptVodIDs(ctx context.Context, source string) (map[int64]bool, error)
	// CollectedRecords returns the records of source's runs that became
	// or joined a movie; typeID >= 0 limits them to that type.
	CollectedRecords(ctx context.Context, source string, typeID int64) ([]CollectedRecord, error)
	// ForgetRecords forgets which movies these records became.
	ForgetRecords(ctx context.Context, source string, vodIDs []int64) error
	// SetSourceRules sets what full runs do with records gone at the
	// source and the operator's synonym rules; ENOTFOUND when there is
	// no such source.
	SetSourceRules(ctx context.Context, source string, gone Gone, synonyms []Synonym) error
}
