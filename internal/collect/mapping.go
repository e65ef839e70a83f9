package collect

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"catalog/internal/catalog"
)

// toMovie maps a source's record to a movie, reversing contract 6 as
// contract 10 says, and normalises it with the import's rules (4.6, 9).
// The field errors are the record's rejection.
func toMovie(v *vod) (catalog.CollectedMovie, catalog.FieldErrors) {
	fe := catalog.FieldErrors{}
	id, err := strconv.ParseInt(strings.TrimSpace(string(v.ID)), 10, 64)
	if err != nil || id <= 0 {
		fe.Add("vod_id", "must be a positive integer, got "+strconv.Quote(clip(string(v.ID))))
	}
	m := catalog.Movie{
		Name:       string(v.Name),
		Slug:       string(v.En),
		IDCode:     string(v.Sub),
		Year:       year(string(v.Year)),
		Release:    releaseDate(string(v.Pubdate)),
		Poster1URL: picURL(string(v.PicSlide)),
		Poster2URL: portrait(picURL(string(v.Pic)), picURL(string(v.PicSlide))),
		Synopsis:   plainText(string(v.Content)),
		Episodes:   servers(string(v.PlayFrom), string(v.PlayNote), string(v.PlayURL)),
		Score:      score(string(v.Score), string(v.DoubanScore)),
		DoubanID:   doubanID(string(v.DoubanID)),
	}
	lists := map[string][]string{
		"categories": {string(v.TypeName)},
		"actor":      splitList(string(v.Actor), ","),
		"director":   splitList(string(v.Director), ","),
		"country":    splitList(string(v.Area), ","),
		"studio":     nil,
		"genre":      splitList(string(v.Class), ",/"),
	}
	for name, items := range lists {
		*catalog.MovieList(&m, name) = catalog.NewList(items)
	}
	fe.AddError("record", m.Normalize())
	typeID, _ := strconv.ParseInt(strings.TrimSpace(string(v.TypeID)), 10, 64) // not a number: no type
	return catalog.CollectedMovie{VodID: id, TypeID: max(typeID, 0), Movie: m}, fe
}

// contentHash is the hash of a mapped record: every field of the movie
// (episodes included), so that a record whose content did not change
// since its source last sent it is not written again. The mapping is
// part of it: a change of the mapping writes every record once.
func contentHash(m *catalog.Movie, typeID int64) string {
	b, err := json.Marshal(m)
	if err != nil {
		return "" // not known: written
	}
	b = strconv.AppendInt(append(b, '\n'), typeID, 10)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// year is vod_year, "" for MacCMS's 0 (unknown).
func year(s string) string {
	s = strings.TrimSpace(s)
	if s == "0" {
		return ""
	}
	return s
}

// score is vod_score, or vod_douban_score when vod_score gives no score
// above 0 and it does (MacCMS keeps both, 0.0 when unset), with one
// decimal (contract 12). A value that is not a number from 0 to 10 is
// no score: a source's odd score costs the movie its score, never the
// record.
func score(vodScore, doubanScore string) string {
	s, ok := scoreOf(vodScore)
	if d, dok := scoreOf(doubanScore); dok && d != "0.0" && (!ok || s == "0.0") {
		return d
	}
	return s
}

func scoreOf(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f <= 10) {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', 1, 64), true
}

// doubanID is vod_douban_id as digits, "" for MacCMS's 0 and for
// anything that is not a Douban id.
func doubanID(s string) string {
	id, problem := catalog.NormalizeDoubanID(s)
	if problem != "" {
		return ""
	}
	return id
}

// pubdateLayouts are the vod_pubdate forms sources write a whole date in.
var pubdateLayouts = []string{
	"2006-01-02", "2006-1-2", time.DateTime, "2006-01-02T15:04:05Z07:00", "2006-01-02 15:04",
	"2006/01/02", "2006/1/2", "2006.01.02", "2006.1.2", "20060102", "02/01/2006 15:04:05",
}

// releaseDate is vod_pubdate as YYYY-MM-DD when it is a real date in a
// form sources use, else "" (a year alone, "unknown", a month).
func releaseDate(s string) string {
	s = strings.TrimSpace(s)
	for _, layout := range pubdateLayouts {
		if t, err := time.Parse(layout, s); err == nil && t.Year() >= 1 {
			return t.Format(time.DateOnly)
		}
	}
	return ""
}

// picURL is a poster address. MacCMS writes "mac://" for "the site's
// own scheme"; a protocol-relative "//host/x" means the same.
func picURL(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "mac://"):
		return "https://" + s[len("mac://"):]
	case strings.HasPrefix(s, "//"):
		return "https:" + s
	}
	return s
}

// portrait is poster2_url: vod_pic, unless it is vod_pic_slide, which
// section 6 puts in vod_pic when a movie has no portrait poster: that
// movie comes back without one (contract 10).
func portrait(pic, slide string) string {
	if pic == slide {
		return ""
	}
	return pic
}

func splitList(s, seps string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) })
}

var (
	htmlBreak = regexp.MustCompile(`(?i)<\s*(br|/p|/div|/li|/h[1-6])\b[^>]*>`)
	htmlTag   = regexp.MustCompile(`<(?:[a-zA-Z/!][^<>]*)>`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
)

// plainTextRounds bounds how often plainText decodes and strips: text
// that still changes after that many rounds is built to hide markup.
const plainTextRounds = 8

// plainText is vod_content with its HTML removed: entities decoded,
// then tags dropped (a line break for <br> and the end of a block), and
// again until nothing changes, so that markup written as entities
// (&lt;img&gt;) or split by a tag (<<b>img>) is removed too; the lines
// trimmed. A '<' that starts no tag stays. Text that is still changing
// after plainTextRounds rounds loses every '<', '>' and '&', so that
// no decoding downstream can make markup of it.
func plainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	stable := false
	for range plainTextRounds {
		next := html.UnescapeString(s)
		next = htmlBreak.ReplaceAllString(next, "\n")
		next = htmlTag.ReplaceAllString(next, "")
		if next == s {
			stable = true
			break
		}
		s = next
	}
	if !stable {
		s = strings.NewReplacer("<", "", ">", "", "&", "").Replace(s)
	}
	s = strings.ReplaceAll(s, "\u00a0", " ")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// servers maps the play groups to servers (contract 10). Adjacent
// groups with the same non-empty note (vod_play_note) are one server of
// that name, their episodes joined episode by episode (joinEpisodes), as
// long as no two of them carry the same kind of link; any other group is
// a server of its own, named after its note, or its code when it has
// none. A name seen before is numbered ("m3u8 (2)"). Pieces whose address
// is not http(s) (ids for a site's own parser) are left out, and so is a
// group left empty.
func servers(from, note, urls string) []catalog.Server {
	if strings.TrimSpace(urls) == "" {
		return nil
	}
	codes := strings.Split(from, catalog.PlaySeparator)
	notes := strings.Split(note, catalog.PlaySeparator)
	var out []catalog.Server
	var lastNote string     // the note of out's last server
	var lastKinds linkKinds // the kinds of link out's last server has
	seen := map[string]int{}
	for i, group := range strings.Split(urls, catalog.PlaySeparator) {
		code := strings.TrimSpace(item(codes, i))
		if code == "" {
			code = "play"
		}
		eps, kinds := episodes(group, code)
		if len(eps) == 0 {
			continue
		}
		n := serverNote(item(notes, i))
		if n != "" && n == lastNote && kinds&lastKinds == 0 {
			last := &out[len(out)-1]
			last.Episodes = joinEpisodes(last.Episodes, eps)
			lastKinds |= kinds
			continue
		}
		name := n
		if name == "" {
			name = code
		}
		seen[name]++
		out = append(out, catalog.Server{Name: numbered(name, seen[name]), Episodes: eps})
		lastNote, lastKinds = n, kinds
	}
	return out
}

// item is list[i], "" past its end.
func item(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// serverNote is a group's note as a server name: "$" and "#" decoded,
// trimmed, white space collapsed when the note runs over lines (a server
// name is one line), at most catalog.MaxServerNameRunes characters.
func serverNote(s string) string {
	s = strings.TrimSpace(catalog.UnescapePlayPiece(s))
	if strings.ContainsFunc(s, unicode.IsControl) {
		s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	}
	if r := []rune(s); len(r) > catalog.MaxServerNameRunes {
		s = strings.TrimSpace(string(r[:catalog.MaxServerNameRunes]))
	}
	return s
}

// numbered is the n-th server called name: name itself, then "name (2)"
// and so on, within catalog.MaxServerNameRunes characters.
func numbered(name string, n int) string {
	if n <= 1 {
		return name
	}
	suffix := " (" + strconv.Itoa(n) + ")"
	if r := []rune(name); len(r)+len(suffix) > catalog.MaxServerNameRunes {
		name = string(r[:catalog.MaxServerNameRunes-len(suffix)])
	}
	return name + suffix
}

// linkKinds are the kinds of link a group's episodes carry.
type linkKinds uint8

const (
	kindEmbed linkKinds = 1 << iota
	kindM3U8
)

// joinEpisodes adds the episodes of a server's next group to those of
// its earlier groups, episode by episode: an episode of the same name
// (the first after the last one matched) gains the new link. Between two
// such matches, the episodes that only one side has are merged in the
// order of the numbers in their names (Ep 2 before Ep 3), else the
// earlier groups' first. No episode of base has a link of the kinds add
// carries (servers checks), so nothing is overwritten.
func joinEpisodes(base, add []catalog.Episode) []catalog.Episode {
	at := make(map[string][]int, len(base)) // the places of each name in base, in order
	for i, e := range base {
		at[e.Name] = append(at[e.Name], i)
	}
	out := make([]catalog.Episode, 0, len(base)+len(add))
	next := 0                  // base[next:] is not in out yet
	var only []catalog.Episode // episodes of add since the last match
	for _, e := range add {
		places := at[e.Name]
		for len(places) > 0 && places[0] < next {
			places = places[1:]
		}
		at[e.Name] = places
		if len(places) == 0 {
			only = append(only, e)
			continue
		}
		j := places[0]
		at[e.Name] = places[1:]
		out = mergeByNumber(out, base[next:j], only)
		only = only[:0]
		joined := base[j]
		if e.LinkEmbed != "" {
			joined.LinkEmbed = e.LinkEmbed
		}
		if e.LinkM3U8 != "" {
			joined.LinkM3U8 = e.LinkM3U8
		}
		out = append(out, joined)
		next = j + 1
	}
	return mergeByNumber(out, base[next:], only)
}

// mergeByNumber appends a and b to out, each in its order, an episode of
// b before one of a when both names hold a number and b's is smaller.
func mergeByNumber(out, a, b []catalog.Episode) []catalog.Episode {
	for len(a) > 0 && len(b) > 0 {
		na, okA := nameNumber(a[0].Name)
		nb, okB := nameNumber(b[0].Name)
		if okA && okB && nb < na {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// nameNumber is the last number in an episode's name ("Ep 12": 12).
func nameNumber(name string) (int, bool) {
	end := strings.LastIndexFunc(name, isDigit) + 1
	if end == 0 {
		return 0, false
	}
	start := strings.LastIndexFunc(name[:end], func(r rune) bool { return !isDigit(r) }) + 1
	n, err := strconv.Atoi(name[start:end])
	return n, err == nil
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// episodes reads one group of code: pieces joined with '#', each
// "NAME$URL" or a bare URL, with '$' and '#' percent-encoded inside
// (contract 9): the name is decoded, the URL kept as written. It says
// which kinds of link it found. The URLs of an
// m3u8 group are link_m3u8, those of an iframe group link_embed (MacCMS's
// stock players of those codes); in a group of any other code a URL
// ending in .m3u8 is link_m3u8 and any other link_embed.
func episodes(group, code string) ([]catalog.Episode, linkKinds) {
	var eps []catalog.Episode
	var kinds linkKinds
	for _, piece := range strings.Split(group, "#") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		name, link, ok := strings.Cut(piece, "$")
		if !ok {
			name, link = "", piece
		}
		link = strings.TrimSpace(link) // as the source wrote it: %24 and %23 stay
		name = catalog.UnescapePlayPiece(strings.TrimSpace(name))
		u, err := url.Parse(link)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if name == "" {
			name = "Ep " + strconv.Itoa(len(eps)+1)
		}
		e := catalog.Episode{Name: name}
		switch {
		case code == catalog.PlayFromM3U8,
			code != catalog.PlayFromIframe && strings.HasSuffix(strings.ToLower(u.Path), ".m3u8"):
			e.LinkM3U8 = link
			kinds |= kindM3U8
		default:
			e.LinkEmbed = link
			kinds |= kindEmbed
		}
		eps = append(eps, e)
	}
	return eps, kinds
}
