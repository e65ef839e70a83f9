package catalog

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The identity rule of contract 10, above the engines: which movie each
// collected record becomes, and what is written there. The rule reads
// the store through a few plain lookups (CollectReader), each asked
// once for the whole page inside the transaction that writes it, and
// the engine writes the plan.

// SourceLink says which movie a source's record became. Joined: the
// movie did not come from this source, which owns only its servers
// named "SOURCE: SERVER" there.
type SourceLink struct {
	MovieID int64
	Joined  bool
	// Hash is the content hash of the record the last time it was
	// written (CollectedMovie.Hash); "" when not known.
	Hash string
	// Servers are the names of the servers a joined record put in the
	// movie when it was last written; nil when not known (a link stored
	// before the names were kept), and then its servers are those named
	// "SOURCE: ...".
	Servers []string
}

// MovieLink is a source's record that became a movie, seen from the
// movie: the source, whether it joined, and the servers it put there
// when it did (SourceLink.Servers).
type MovieLink struct {
	Source  string
	Joined  bool
	Servers []string
}

// MovieKey names a column that movies are looked up by.
type MovieKey uint8

// The keys of CollectReader.MovieIDsBy.
const (
	KeyTitle    MovieKey = iota // title_key (TitleKey of the name)
	KeyDoubanID                 // douban_id
	KeyIDCode                   // id_code
	KeySlug                     // slug
)

// MaxKeyMatches is how many movies MovieIDsBy returns for one value, the
// lowest ids: a title held by more movies than that (a common word) is
// joined to one of the first, or to none.
const MaxKeyMatches = 50

// CollectReader is what PlanCollect reads: plain lookups of the store,
// each for a whole page, inside the transaction that writes it.
type CollectReader interface {
	// SourceSettings returns source's settings; DefaultSourceSettings
	// when it is not a stored source (collected by address).
	SourceSettings(ctx context.Context, source string) (SourceSettings, error)
	// LinksByVodID returns the links of source's records with these
	// vod_ids, by vod_id.
	LinksByVodID(ctx context.Context, source string, vodIDs []int64) (map[int64]SourceLink, error)
	// LinksByMovie returns every link to these movies, by movie id, in
	// the order of their sources' names.
	LinksByMovie(ctx context.Context, movieIDs []int64) (map[int64][]MovieLink, error)
	// Movies reads these movies whole, by id.
	Movies(ctx context.Context, ids []int64) (map[int64]Movie, error)
	// MovieIDsBy returns, for each of these values (distinct, none
	// ""), the ids of the movies holding it in key, lowest first and at
	// most MaxKeyMatches.
	MovieIDsBy(ctx context.Context, key MovieKey, values []string) (map[string][]int64, error)
}

// CollectWrite is one movie to write for a page: Movie is written by
// its ID (0: a new movie, numbered by the engine); when Link is set
// the record's link is stored afterwards (added or replaced), pointing
// at Movie.ID, with Servers when Joined.
type CollectWrite struct {
	Record int // index in the page
	Movie  Movie
	VodID  int64
	Link   bool
	Joined bool
	// Servers are, for a joined record, the names of its servers in the
	// movie written: what its next run replaces, so that a hand-made
	// server is never taken for the source's.
	Servers []string
	// mine is the joined record's servers as last written (its link's).
	mine []string
	// Hash is stored with the record's link, new or not, once the
	// movie is written.
	Hash string
}

// PlanCollect applies the identity rule to a page whose records are
// normalised: a record whose vod_id this source sent before updates that
// movie (its own fields and servers when the movie is the source's,
// only its "SOURCE: SERVER" servers and the fields it fills when the
// record had joined it); a new record joins a movie that no record of
// this source became and that it matches (Match.matches under the
// source's match fields, the lowest id first), else becomes a new movie.
// A later record of the page with the same vod_id wins. A record whose
// content hash equals the one its link holds is not written at all
// (Unchanged). A record that cannot be merged (the joined movie would
// break a limit) gets its Err set and is not written.
func PlanCollect(ctx context.Context, source string, page []CollectedMovie, read CollectReader) ([]CollectWrite, error) {
	last := make(map[int64]int, len(page))
	for i := range page {
		last[page[i].VodID] = i
	}
	vodIDs := make([]int64, 0, len(last))
	for i := range page {
		if last[page[i].VodID] == i {
			vodIDs = append(vodIDs, page[i].VodID)
		}
	}
	links, err := read.LinksByVodID(ctx, source, vodIDs)
	if err != nil {
		return nil, err
	}
	changed := vodIDs[:0]
	var fresh []*Movie // the records no link holds
	for _, id := range vodIDs {
		r := &page[last[id]]
		l, ok := links[id]
		if ok && r.Hash != "" && r.Hash == l.Hash {
			r.Unchanged, r.Movie.ID = true, l.MovieID
			continue
		}
		changed = append(changed, id)
		if !ok {
			fresh = append(fresh, &r.Movie)
		}
	}
	vodIDs = changed
	if len(vodIDs) == 0 {
		return nil, nil
	}
	set, err := read.SourceSettings(ctx, source)
	if err != nil {
		return nil, err
	}
	m := merger{source: source, read: read, set: set, stored: map[int64]Movie{}}
	joins, err := m.findJoins(ctx, fresh)
	if err != nil {
		return nil, err
	}
	writes := make([]CollectWrite, 0, len(vodIDs))
	var targets []int64 // movies whose stored servers the writes depend on
	for _, id := range vodIDs {
		i := last[id]
		w := CollectWrite{Record: i, Movie: page[i].Movie, VodID: id, Hash: page[i].Hash}
		w.Movie.ID = 0
		if l, ok := links[id]; ok {
			w.Movie.ID, w.Joined, w.mine = l.MovieID, l.Joined, l.Servers
			w.Link = l.Joined // a joined link keeps its servers' names
		} else if mid, ok := joins[&page[i].Movie]; ok {
			w.Movie.ID, w.Joined, w.Link, w.mine = mid, true, true, []string{} // none of its servers are there yet
		} else {
			w.Link = true
		}
		if w.Movie.ID != 0 {
			targets = append(targets, w.Movie.ID)
		}
		writes = append(writes, w)
	}
	writes, err = m.mergeServers(ctx, page, writes, targets)
	if err != nil {
		return nil, err
	}
	return writes, m.ownKeys(ctx, page, writes)
}

// merger is one page's plan: the source, its settings, and the stored
// movies read so far, by id.
type merger struct {
	source string
	read   CollectReader
	set    SourceSettings
	stored map[int64]Movie
}

// movies reads the stored movies of ids that it has not read yet.
func (m *merger) movies(ctx context.Context, ids []int64) error {
	var want []int64
	for _, id := range ids {
		if _, ok := m.stored[id]; !ok && !slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return nil
	}
	got, err := m.read.Movies(ctx, want)
	maps.Copy(m.stored, got)
	return err
}

// idsBy is read.MovieIDsBy of the distinct values that are not "".
func (m *merger) idsBy(ctx context.Context, key MovieKey, values []string) (map[string][]int64, error) {
	distinct := slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(values))), func(v string) bool { return v == "" })
	if len(distinct) == 0 {
		return map[string][]int64{}, nil
	}
	return m.read.MovieIDsBy(ctx, key, distinct)
}

// findJoins picks, for each new record, the movie it joins: the
// lowest id among the movies that no record of the source became and
// that the record matches (Match.matches), those of a shared Douban id
// first. A record that joins nothing is not in the map.
func (m *merger) findJoins(ctx context.Context, fresh []*Movie) (map[*Movie]int64, error) {
	joins := map[*Movie]int64{}
	if len(fresh) == 0 {
		return joins, nil
	}
	var titles, doubans []string
	for _, r := range fresh {
		if m.set.Match&MatchName != 0 && m.set.Match&MatchDoubanID == 0 {
			titles = append(titles, TitleKey(r.Name))
		}
		doubans = append(doubans, r.DoubanID)
	}
	byTitle, err := m.idsBy(ctx, KeyTitle, titles)
	if err != nil {
		return nil, err
	}
	byDouban, err := m.idsBy(ctx, KeyDoubanID, doubans)
	if err != nil {
		return nil, err
	}
	var cands []int64
	for _, ids := range byTitle {
		cands = append(cands, ids...)
	}
	for _, ids := range byDouban {
		cands = append(cands, ids...)
	}
	if len(cands) == 0 {
		return joins, nil
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	links, err := m.read.LinksByMovie(ctx, cands)
	if err != nil {
		return nil, err
	}
	if err := m.movies(ctx, cands); err != nil {
		return nil, err
	}
	open := func(id int64) bool { // no record of the source became it
		return !slices.ContainsFunc(links[id], func(l MovieLink) bool { return l.Source == m.source })
	}
	for _, r := range fresh {
		for _, ids := range [][]int64{byDouban[r.DoubanID], byTitle[TitleKey(r.Name)]} {
			i := slices.IndexFunc(ids, func(id int64) bool {
				s, ok := m.stored[id]
				return ok && open(id) && m.set.Match.matches(r, &s)
			})
			if i >= 0 {
				joins[r] = ids[i]
				break
			}
		}
	}
	return joins, nil
}

// ownKeys keeps a source from taking an id_code or slug that a movie of
// another source or an import holds: such an id_code is left empty and
// such a slug is the record's own (derived from its name, with -2, -3,
// ... when that is taken too), each noted. A joined record writes
// neither.
func (m *merger) ownKeys(ctx context.Context, page []CollectedMovie, writes []CollectWrite) error {
	codes, slugs := []string{}, []string{}
	for _, w := range writes {
		if !w.Joined {
			codes = append(codes, w.Movie.IDCode)
			slugs = append(slugs, w.Movie.Slug)
		}
	}
	if len(slugs) == 0 {
		return nil
	}
	heldCodes, err := m.heldBy(ctx, KeyIDCode, codes)
	if err != nil {
		return err
	}
	heldSlugs, err := m.heldBy(ctx, KeySlug, slugs)
	if err != nil || len(heldCodes)+len(heldSlugs) == 0 {
		return err
	}
	var taken []int // writes whose slug is held
	var candidates []string
	for i := range writes {
		w := &writes[i]
		if w.Joined {
			continue
		}
		if id, ok := heldCodes[w.Movie.IDCode]; ok {
			note(page, w, "id_code "+strconv.Quote(w.Movie.IDCode)+" is movie "+strconv.FormatInt(id, 10)+"'s: written without it")
			w.Movie.IDCode = ""
		}
		if _, ok := heldSlugs[w.Movie.Slug]; ok {
			taken = append(taken, i)
			candidates = append(candidates, slugCandidates(w.Movie)...)
		}
	}
	if len(taken) == 0 {
		return nil
	}
	holders, err := m.idsBy(ctx, KeySlug, candidates)
	if err != nil {
		return err
	}
	free := make(map[string]bool, len(candidates))
	for _, c := range candidates {
		free[c] = len(holders[c]) == 0
	}
	for _, i := range taken {
		w := &writes[i]
		old, id := w.Movie.Slug, heldSlugs[w.Movie.Slug]
		w.Movie.Slug = ""
		for _, c := range slugCandidates(w.Movie) {
			if free[c] {
				w.Movie.Slug, free[c] = c, false // one record of the page each
				break
			}
		}
		if w.Movie.Slug == "" {
			w.Movie.Slug = Slugify(w.Movie.Name) + "-" + strconv.FormatInt(w.VodID, 10)
		}
		note(page, w, "slug "+strconv.Quote(old)+" is movie "+strconv.FormatInt(id, 10)+"'s: written as "+strconv.Quote(w.Movie.Slug))
	}
	return nil
}

// heldBy returns which of values a movie holds in key that is not one
// of the source's own (a movie a record of the source became without
// joining it), each with the lowest such movie's id.
func (m *merger) heldBy(ctx context.Context, key MovieKey, values []string) (map[string]int64, error) {
	holders, err := m.idsBy(ctx, key, values)
	if err != nil || len(holders) == 0 {
		return nil, err
	}
	var ids []int64
	for _, hs := range holders {
		ids = append(ids, hs...)
	}
	links, err := m.read.LinksByMovie(ctx, ids)
	if err != nil {
		return nil, err
	}
	held := map[string]int64{}
	for v, hs := range holders {
		for _, id := range hs {
			if !slices.ContainsFunc(links[id], func(l MovieLink) bool { return l.Source == m.source && !l.Joined }) {
				held[v] = id
				break
			}
		}
	}
	return held, nil
}

// slugTries is how many slugs ownKeys tries for a record: its name's,
// then with -2 up to -slugTries.
const slugTries = 20

// slugCandidates are the slugs a record whose slug is taken may take
// instead: derived from its name (contract 4.6), then with -2, -3, ...
func slugCandidates(m Movie) []string {
	base := Slugify(m.Name)
	out := make([]string, 0, slugTries)
	out = append(out, base)
	for n := 2; n <= slugTries; n++ {
		out = append(out, base+"-"+strconv.Itoa(n))
	}
	return out
}

// note records what was changed of w's record.
func note(page []CollectedMovie, w *CollectWrite, msg string) {
	page[w.Record].Notes = append(page[w.Record].Notes, msg)
}

// mergeServers completes the writes that share a movie with other
// sources: a joined record keeps the stored movie, fills its fields
// (mergeFields) and replaces only its own servers; the source's own
// movie keeps the servers that other sources' records joined it with,
// and the fields its record leaves empty (keepFilled).
func (m *merger) mergeServers(ctx context.Context, page []CollectedMovie, writes []CollectWrite, targets []int64) ([]CollectWrite, error) {
	if len(targets) == 0 {
		return writes, nil
	}
	links, err := m.read.LinksByMovie(ctx, targets)
	if err != nil {
		return nil, err
	}
	joined := func(id int64) []MovieLink {
		return slices.DeleteFunc(slices.Clone(links[id]), func(l MovieLink) bool { return !l.Joined })
	}
	var read []int64
	for _, w := range writes {
		if w.Movie.ID != 0 && (w.Joined || len(joined(w.Movie.ID)) > 0) {
			read = append(read, w.Movie.ID)
		}
	}
	if len(read) == 0 {
		return writes, nil
	}
	if err := m.movies(ctx, read); err != nil {
		return nil, err
	}
	kept := writes[:0]
	for _, w := range writes {
		old, ok := m.stored[w.Movie.ID]
		if !ok || !w.Joined && len(joined(w.Movie.ID)) == 0 {
			kept = append(kept, w)
			continue
		}
		// The movie's own servers first, then the joining ones while the
		// movie stays within its limits (20 servers, the size of its
		// episodes): another source's servers never cost a record its
		// update, and the servers left out are noted.
		var base Movie
		var joining []Server
		if w.Joined {
			base = mergeFields(old, w.Movie, m.set.Preferred)
			base.Episodes = slices.DeleteFunc(slices.Clone(old.Episodes), func(s Server) bool { return isSourceServer(s.Name, m.source, w.mine) })
			joining = joinNames(base.Episodes, m.source, w.Movie.Episodes)
		} else {
			base = keepFilled(w.Movie, old)
			joining = serversOf(old.Episodes, joined(w.Movie.ID))
		}
		base.UpdatedAt = time.Time{} // changed now, if at all
		merged, left, err := fitServers(base, joining)
		if err != nil {
			page[w.Record].Err = "episodes: joining this record's servers to movie " + strconv.FormatInt(w.Movie.ID, 10) + ": " + ErrorMessage(err)
			continue
		}
		if left > 0 {
			whose := "of other sources"
			if w.Joined {
				whose = "of this record"
			}
			note(page, &w, strconv.Itoa(left)+" servers "+whose+" left out of movie "+strconv.FormatInt(w.Movie.ID, 10)+" to keep it within its limits")
		}
		if w.Joined {
			w.Servers = []string{}
			for _, s := range merged.Episodes[len(base.Episodes):] {
				w.Servers = append(w.Servers, s.Name)
			}
		}
		w.Movie = merged
		kept = append(kept, w)
	}
	return kept, nil
}

// fitServers is base with the servers of add appended in order, each
// kept only while the movie stays valid (at most MaxServers servers,
// the size limit of its episodes, unique names); it returns how many
// were left out. The error is base's own, when base alone is not valid.
func fitServers(base Movie, add []Server) (Movie, int, error) {
	m := base
	m.Episodes = slices.Clone(base.Episodes)
	if err := m.Normalize(); err != nil {
		return m, len(add), err
	}
	left := 0
	for _, s := range add {
		try := m
		try.Episodes = append(slices.Clone(m.Episodes), s)
		if try.Normalize() != nil {
			left++
			continue
		}
		m = try
	}
	return m, left, nil
}

// JoinedServerName is the name of a joined record's server: the source,
// a colon and the server's name as the collector read it (contract 10:
// the note of its groups, else its play code).
func JoinedServerName(source, server string) string { return source + ": " + server }

// isSourceServer reports whether the server named name is source's:
// one of mine, the names its joined record put there, or when those are
// not known (nil), any named "SOURCE: ...".
func isSourceServer(name, source string, mine []string) bool {
	if mine != nil {
		return slices.Contains(mine, name)
	}
	return strings.HasPrefix(name, JoinedServerName(source, ""))
}

// joinNames is add renamed for joining a movie whose servers are
// stored: each "SOURCE: NAME", with " (2)", " (3)", ... when another
// server (a hand-made one) already has that name.
func joinNames(stored []Server, source string, add []Server) []Server {
	taken := make(map[string]bool, len(stored)+len(add))
	for _, s := range stored {
		taken[s.Name] = true
	}
	out := make([]Server, 0, len(add))
	for _, s := range add {
		name := JoinedServerName(source, s.Name)
		for n := 2; taken[name] && n <= MaxServers+1; n++ {
			name = JoinedServerName(source, s.Name) + " (" + strconv.Itoa(n) + ")"
		}
		taken[name] = true
		s.Name = name
		out = append(out, s)
	}
	return out
}

// serversOf returns the servers of stored that records of other
// sources joined the movie with.
func serversOf(stored []Server, links []MovieLink) []Server {
	var out []Server
	for _, s := range stored {
		for _, l := range links {
			if isSourceServer(s.Name, l.Source, l.Servers) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// EncodeServerNames is a joined link's servers (SourceLink.Servers) as
// the engines store them: a JSON array, "" for not known (nil).
func EncodeServerNames(names []string) string {
	if names == nil {
		return ""
	}
	b, _ := json.Marshal(names)
	return string(b)
}

// DecodeServerNames reads EncodeServerNames: nil for "" or for what does
// not read.
func DecodeServerNames(s string) []string {
	if s == "" {
		return nil
	}
	names := []string{}
	if json.Unmarshal([]byte(s), &names) != nil {
		return nil
	}
	return names
}
