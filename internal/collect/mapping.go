package collect

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// toMovie maps a source's record to a movie, reversing contract 6 as
// contract 10 says, and normalises it with the import's rules (4.6, 9).
// The field errors are the record's rejection.
func toMovie(v *vod) (catalog.CollectedMovie, catalog.FieldErrors) {
	fe := catalog.FieldErrors{}
	id, err := strconv.ParseInt(strings.TrimSpace(v.ID), 10, 64)
	if err != nil || id <= 0 {
		fe.Add("vod_id", "must be a positive integer, got "+strconv.Quote(clip(v.ID)))
	}
	m := catalog.Movie{
		Name:       v.Name,
		Slug:       v.En,
		IDCode:     v.Sub,
		Year:       year(v.Year),
		Release:    releaseDate(v.Pubdate),
		Poster1URL: picURL(v.PicSlide),
		Poster2URL: picURL(v.Pic),
		Synopsis:   plainText(v.Content),
		Episodes:   servers(v.PlayFrom, v.PlayURL),
	}
	lists := map[string][]string{
		"categories": {v.TypeName},
		"actor":      splitList(v.Actor, ","),
		"director":   splitList(v.Director, ","),
		"country":    splitList(v.Area, ","),
		"studio":     nil,
		"genre":      splitList(v.Class, ",/"),
	}
	for name, items := range lists {
		*catalog.MovieList(&m, name) = catalog.NewList(items)
	}
	if err := m.Normalize(); err != nil {
		if e, ok := err.(*catalog.Error); ok && len(e.Fields) > 0 {
			for k, msg := range e.Fields {
				fe.Add(k, msg)
			}
		} else {
			fe.Add("record", catalog.ErrorMessage(err))
		}
	}
	return catalog.CollectedMovie{VodID: id, Movie: m}, fe
}

// year is vod_year, "" for MacCMS's 0 (unknown).
func year(s string) string {
	s = strings.TrimSpace(s)
	if s == "0" {
		return ""
	}
	return s
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

// servers maps the play groups to servers (contract 10): one server per
// group, named after its code ("code (2)" for a code seen before), each
// "NAME$URL" piece an episode whose URL is link_m3u8 when it ends in
// .m3u8 and link_embed otherwise. Pieces whose address is not http(s)
// (ids for a site's own parser) are left out, and so is a group left
// empty.
func servers(from, urls string) []catalog.Server {
	if strings.TrimSpace(urls) == "" {
		return nil
	}
	codes := strings.Split(from, catalog.PlaySeparator)
	var out []catalog.Server
	seen := map[string]int{}
	for i, group := range strings.Split(urls, catalog.PlaySeparator) {
		code := ""
		if i < len(codes) {
			code = strings.TrimSpace(codes[i])
		}
		if code == "" {
			code = "play"
		}
		eps := episodes(group)
		if len(eps) == 0 {
			continue
		}
		seen[code]++
		name := code
		if n := seen[code]; n > 1 {
			name = code + " (" + strconv.Itoa(n) + ")"
		}
		out = append(out, catalog.Server{Name: name, Episodes: eps})
	}
	return out
}

// episodes reads one group: pieces joined with '#', each "NAME$URL" or
// a bare URL, with '$' and '#' percent-encoded inside (contract 9); the
// name is decoded, the URL kept as written.
func episodes(group string) []catalog.Episode {
	var eps []catalog.Episode
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
		name = unescapePiece(strings.TrimSpace(name))
		u, err := url.Parse(link)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if name == "" {
			name = "Ep " + strconv.Itoa(len(eps)+1)
		}
		e := catalog.Episode{Name: name}
		if strings.HasSuffix(strings.ToLower(u.Path), ".m3u8") {
			e.LinkM3U8 = link
		} else {
			e.LinkEmbed = link
		}
		eps = append(eps, e)
	}
	return eps
}

// unescapePiece undoes the percent-encoding of '$' and '#' that play
// lists use in episode names; any other escape stays as sent. Links
// are kept as sent: decoding %23 in an address would turn a path into
// a fragment, changing where it points.
func unescapePiece(s string) string {
	if !strings.Contains(s, "%2") {
		return s
	}
	return strings.NewReplacer("%24", "$", "%23", "#").Replace(s)
}
