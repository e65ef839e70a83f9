package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
)

// A movie's play sources (contract 9): servers, each with its episodes,
// each episode playable as an embed page, an HLS playlist or both. The
// JSON keys are those of the ophim family of APIs.

// Episode is one playable episode of a server.
type Episode struct {
	Name      string `json:"name"`
	Slug      string `json:"slug"`
	LinkEmbed string `json:"link_embed"` // a page to show in an iframe, or ""
	LinkM3U8  string `json:"link_m3u8"`  // an HLS playlist, or ""
}

// Server is one play source of a movie and its episodes, in order.
type Server struct {
	Name     string    `json:"server_name"`
	Episodes []Episode `json:"server_data"`
}

// Limits of a movie's episodes (contract 9). MaxEpisodesBytes bounds the
// served JSON form of all of them together, so that one movie cannot
// make a list page or an answer grow without bound.
const (
	MaxServers           = 20
	MaxServerEpisodes    = 5000
	MaxServerNameRunes   = 64
	MaxEpisodeNameRunes  = 64
	MaxEpisodeSlugRunes  = 128
	MaxEpisodesBytes     = 2 << 20
	ShorthandServerName  = "Main"
	ShorthandEpisodeName = "Full"
)

// ShorthandEpisodes is what the import members link_embed and link_m3u8
// stand for: one server Main with one episode Full; nil when both links
// are empty.
func ShorthandEpisodes(embed, m3u8 string) []Server {
	if strings.TrimSpace(embed) == "" && strings.TrimSpace(m3u8) == "" {
		return nil
	}
	return []Server{{Name: ShorthandServerName, Episodes: []Episode{{
		Name: ShorthandEpisodeName, LinkEmbed: embed, LinkM3U8: m3u8}}}}
}

// FirstEmbed is the first embed link of the first server ("" when it
// has none): what /api/jav's URL_player carries for old clients.
func FirstEmbed(servers []Server) string {
	if len(servers) == 0 {
		return ""
	}
	for _, e := range servers[0].Episodes {
		if e.LinkEmbed != "" {
			return e.LinkEmbed
		}
	}
	return ""
}

// ParseEpisodes reads the JSON form of a movie's episodes (an import
// member, a CSV cell, a stored column). A member that is not one of the
// contract's is an error, as in a whole record.
func ParseEpisodes(text []byte) ([]Server, error) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 || string(text) == "null" {
		return nil, nil
	}
	var servers []Server
	if err := json.Unmarshal(text, &servers, json.RejectUnknownMembers(true)); err != nil {
		return nil, Errorf(EINVALID, "must be an array of servers as in contract 9: %s", jsonProblem(err))
	}
	if len(servers) == 0 {
		return nil, nil
	}
	return servers, nil
}

// jsonProblem is the part of a JSON decoding error worth showing: where
// and what, without the Go type names.
func jsonProblem(err error) string {
	var se *json.SemanticError
	if errors.As(err, &se) && se.JSONPointer != "" {
		if se.Err != nil {
			return "at " + string(se.JSONPointer) + ": " + se.Err.Error()
		}
		return "at " + string(se.JSONPointer) + ": wrong type"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// AppendEpisodesJSON appends the stored (and exported) form of
// servers: `[]` when there are none.
func AppendEpisodesJSON(b []byte, servers []Server) []byte {
	return appendServers(b, servers, nil, false)
}

// appendServers appends servers as a JSON array, each server with its
// "status" and "checked_at" from health when served (contract 13).
func appendServers(b []byte, servers []Server, health []ServerHealth, served bool) []byte {
	b = append(b, '[')
	for i, s := range servers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"server_name":`...)
		b = AppendJSONString(b, s.Name)
		if served {
			h := HealthOf(health, s.Name)
			b = append(b, `,"status":"`...)
			b = append(b, h.State()...)
			b = append(b, `","checked_at":"`...)
			if h != nil && h.CheckedAt != 0 {
				b = UnixTime(h.CheckedAt).AppendFormat(b, time.RFC3339)
			}
			b = append(b, '"')
		}
		b = append(b, `,"server_data":[`...)
		for j, e := range s.Episodes {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = AppendJSONString(b, e.Name)
			b = append(b, `,"slug":`...)
			b = AppendJSONString(b, e.Slug)
			b = append(b, `,"link_embed":`...)
			b = AppendJSONString(b, e.LinkEmbed)
			b = append(b, `,"link_m3u8":`...)
			b = AppendJSONString(b, e.LinkM3U8)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// EpisodesJSON is the stored form of servers as a string.
func EpisodesJSON(servers []Server) string { return string(AppendEpisodesJSON(nil, servers)) }

// normalizeEpisodes cleans and checks m.Episodes with the rules of
// contract 9, reporting each problem under the path of its value
// ("episodes[0].server_data[2].link_m3u8").
func (m *Movie) normalizeEpisodes(fe FieldErrors) {
	if len(m.Episodes) == 0 {
		m.Episodes = nil
		return
	}
	if len(m.Episodes) > MaxServers {
		fe.Add("episodes", "must have at most "+strconv.Itoa(MaxServers)+" servers")
		return
	}
	names := make(map[string]bool, len(m.Episodes))
	for i := range m.Episodes {
		s := &m.Episodes[i]
		at := "episodes[" + strconv.Itoa(i) + "]"
		s.Name = CleanText(s.Name)
		switch msg := checkText(s.Name, MaxServerNameRunes, false); {
		case s.Name == "":
			fe.Add(at+".server_name", "is required")
		case msg != "":
			fe.Add(at+".server_name", msg)
		case names[s.Name]:
			fe.Add(at+".server_name", "repeats the name of an earlier server")
		}
		names[s.Name] = true
		normalizeServer(s, at, fe)
	}
	if len(fe) == 0 {
		if n := len(AppendEpisodesJSON(nil, m.Episodes)); n > MaxEpisodesBytes {
			fe.Add("episodes", "must be at most "+strconv.Itoa(MaxEpisodesBytes)+" bytes as JSON, is "+strconv.Itoa(n))
		}
	}
}

// normalizeServer checks the episodes of one server.
func normalizeServer(s *Server, at string, fe FieldErrors) {
	if len(s.Episodes) == 0 || len(s.Episodes) > MaxServerEpisodes {
		fe.Add(at+".server_data", "must have 1 to "+strconv.Itoa(MaxServerEpisodes)+" episodes")
		return
	}
	slugs := make(map[string]bool, len(s.Episodes))
	for j := range s.Episodes {
		e := &s.Episodes[j]
		eat := at + ".server_data[" + strconv.Itoa(j) + "]"
		e.Name = CleanText(e.Name)
		if e.Name == "" {
			fe.Add(eat+".name", "is required")
		} else if msg := checkText(e.Name, MaxEpisodeNameRunes, false); msg != "" {
			fe.Add(eat+".name", msg)
		}
		e.Slug = CleanText(e.Slug)
		if e.Slug == "" && e.Name != "" {
			e.Slug = Slugify(e.Name)
		}
		if msg := checkText(e.Slug, MaxEpisodeSlugRunes, false); msg != "" {
			fe.Add(eat+".slug", msg)
		} else if e.Slug != "" && slugs[e.Slug] {
			fe.Add(eat+".slug", "repeats the slug of an earlier episode of this server")
		}
		slugs[e.Slug] = true
		e.LinkEmbed = strings.TrimSpace(e.LinkEmbed)
		e.LinkM3U8 = strings.TrimSpace(e.LinkM3U8)
		if e.LinkEmbed == "" && e.LinkM3U8 == "" {
			fe.Add(eat, "needs link_embed, link_m3u8 or both")
		}
		for _, l := range [...]struct{ key, v string }{{"link_embed", e.LinkEmbed}, {"link_m3u8", e.LinkM3U8}} {
			if l.v != "" {
				if msg := CheckURL(l.v); msg != "" {
					fe.Add(eat+"."+l.key, msg)
				}
			}
		}
	}
}

// KeepEpisodeSlugs gives each episode of servers that has no slug the
// slug of its stored counterpart: the episode of the same name (the
// n-th of that name) in the stored server of the same name. A form that
// edits episodes without their slugs (the console's NAME | EMBED URL |
// M3U8 URL lines) so keeps an imported slug through an edit; a renamed
// episode, or a new one, gets its slug derived from its name.
func KeepEpisodeSlugs(servers, stored []Server) {
	for i := range servers {
		s := &servers[i]
		name := CleanText(s.Name)
		var old *Server
		for j := range stored {
			if stored[j].Name == name {
				old = &stored[j]
				break
			}
		}
		if old == nil {
			continue
		}
		seen := map[string]int{} // how many episodes of each name came before
		for k := range s.Episodes {
			e := &s.Episodes[k]
			if CleanText(e.Slug) != "" {
				continue
			}
			ename := CleanText(e.Name)
			n := seen[ename]
			seen[ename]++
			for _, o := range old.Episodes {
				if o.Name != ename {
					continue
				}
				if n == 0 {
					e.Slug = o.Slug
					break
				}
				n--
			}
		}
	}
}

// The MacCMS play group codes (contract 9): iframe is MacCMS's stock
// player for embed pages, m3u8 its HLS player.
const (
	PlayFromIframe = "iframe"
	PlayFromM3U8   = "m3u8"
)

// PlayGroup is one MacCMS play group: its code, the name of the server
// it belongs to (vod_play_note) and its episodes as NAME$URL joined
// with "#". Note and URL are as the play fields carry them, with "$"
// and "#" percent-encoded.
type PlayGroup struct {
	From string
	Note string
	URL  string
}

// PlayGroups are the play groups of servers (contract 9): for each
// server in order, its m3u8 group then its iframe group, each only when
// it has a link. HLS comes first because several player apps read only
// the first group, and every one of them plays HLS. only, when not "",
// keeps the groups of that code.
func PlayGroups(servers []Server, only string) []PlayGroup {
	var groups []PlayGroup
	for _, s := range servers {
		for _, from := range [...]string{PlayFromM3U8, PlayFromIframe} {
			if only != "" && only != from {
				continue
			}
			if g, ok := playGroup(s, from); ok {
				groups = append(groups, g)
			}
		}
	}
	return groups
}

// playGroup is the group of code from in server s, and whether it has
// any link. MacCMS splits play lists on "$$$" (groups), "#" (episodes)
// and "$" (name and address), so "$" and "#" inside a name, a URL or
// the server's name are percent-encoded and every piece arrives whole.
func playGroup(s Server, from string) (PlayGroup, bool) {
	var b strings.Builder
	for _, e := range s.Episodes {
		link := e.LinkEmbed
		if from == PlayFromM3U8 {
			link = e.LinkM3U8
		}
		if link == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('#')
		}
		writePlayPiece(&b, e.Name)
		b.WriteByte('$')
		writePlayPiece(&b, link)
	}
	if b.Len() == 0 {
		return PlayGroup{}, false
	}
	var note strings.Builder
	writePlayPiece(&note, s.Name)
	return PlayGroup{From: from, Note: note.String(), URL: b.String()}, true
}

func writePlayPiece(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '$':
			b.WriteString("%24")
		case '#':
			b.WriteString("%23")
		default:
			b.WriteByte(c)
		}
	}
}

// UnescapePlayPiece undoes the percent-encoding of "$" and "#" in an
// episode's name or a note of a play list; any other escape stays as
// sent. A collector keeps links as sent: decoding %23 in an address
// would turn a path into a fragment, changing where it points.
func UnescapePlayPiece(s string) string {
	if !strings.Contains(s, "%2") {
		return s
	}
	return playPieceUnescaper.Replace(s)
}

var playPieceUnescaper = strings.NewReplacer("%24", "$", "%23", "#")

// PlaySeparator joins play groups in vod_play_from, vod_play_server,
// vod_play_note and vod_play_url; ListPlaySeparator joins the codes of
// vod_play_from in a list-mode record (ac=list), as MacCMS's
// Provide.php does.
const (
	PlaySeparator     = "$$$"
	ListPlaySeparator = ","
)

// VodPlay is the four play fields of a MacCMS record (contract 9); each
// is "" when there are no groups.
type VodPlay struct {
	From, Server, Note, URL string
}

// JoinPlayGroups joins groups into a full record's play fields: the
// server of every group is "no", its note the name of its server.
func JoinPlayGroups(groups []PlayGroup) VodPlay {
	if len(groups) == 0 {
		return VodPlay{}
	}
	froms := make([]string, len(groups))
	notes := make([]string, len(groups))
	urls := make([]string, len(groups))
	for i, g := range groups {
		froms[i], notes[i], urls[i] = g.From, g.Note, g.URL
	}
	return VodPlay{
		From:   strings.Join(froms, PlaySeparator),
		Server: strings.Repeat("no"+PlaySeparator, len(groups)-1) + "no",
		Note:   strings.Join(notes, PlaySeparator),
		URL:    strings.Join(urls, PlaySeparator),
	}
}

// ListPlayFrom is vod_play_from of a list-mode record: the codes of
// groups joined with ListPlaySeparator.
func ListPlayFrom(groups []PlayGroup) string {
	froms := make([]string, len(groups))
	for i, g := range groups {
		froms[i] = g.From
	}
	return strings.Join(froms, ListPlaySeparator)
}

// VodSerial is the most episodes any one server has: vod_serial.
func VodSerial(servers []Server) int {
	n := 0
	for _, s := range servers {
		n = max(n, len(s.Episodes))
	}
	return n
}

// VodRemarks is vod_remarks: "Full" for one episode, "Ep N" for a
// series of N, "" for a movie without episodes.
func VodRemarks(servers []Server) string {
	switch n := VodSerial(servers); n {
	case 0:
		return ""
	case 1:
		return "Full"
	default:
		return "Ep " + strconv.Itoa(n)
	}
}

// scannedText is a text column's value as a driver gives it (what names
// the column in the error).
func scannedText(src any, what string) (string, error) {
	switch v := src.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil // the driver may reuse v's bytes
	}
	return "", fmt.Errorf("%s: cannot scan %T", what, src)
}

// episodesDest is the scan destination of the stored episodes column:
// their JSON form, parsed into the movie.
type episodesDest struct{ m *Movie }

// Scan implements sql.Scanner.
func (d episodesDest) Scan(src any) error {
	text, err := scannedText(src, "episodes")
	if err != nil {
		return err
	}
	if servers, ok := parseStoredEpisodes(text); ok {
		d.m.Episodes = servers
		return nil
	}
	servers, err := ParseEpisodes([]byte(text))
	d.m.Episodes = servers
	return err
}

// The bits of PlayKinds.
const (
	PlayKindIframe = 1 << iota // some episode has an embed link
	PlayKindM3U8               // some episode has an HLS link
)

// PlayKinds says which play groups servers have, as PlayKindIframe and
// PlayKindM3U8 bits: the engines store it so that from=CODE (contract
// 6) is a filter on one integer column.
func PlayKinds(servers []Server) int64 {
	var k int64
	for _, s := range servers {
		for _, e := range s.Episodes {
			if e.LinkEmbed != "" {
				k |= PlayKindIframe
			}
			if e.LinkM3U8 != "" {
				k |= PlayKindM3U8
			}
		}
	}
	return k
}

// PlayKindOf is the PlayKinds bit of a play group code, 0 for a code
// no group has.
func PlayKindOf(from string) int64 {
	switch from {
	case PlayFromIframe:
		return PlayKindIframe
	case PlayFromM3U8:
		return PlayKindM3U8
	}
	return 0
}
