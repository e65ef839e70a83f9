package catalog

import (
	"strings"
	"unicode/utf8"
)

// parseStoredEpisodes reads text when it is exactly in the form
// AppendEpisodesJSON writes, which is how the engines store it: every
// movie detail and every full page reads one, and a general JSON
// decoder spends most of such a read on a series' repeated keys. The
// servers' strings are substrings of text (one allocation for all). ok
// is false for any other form (spaces, another member order, an escape,
// text written by hand), which ParseEpisodes then reads; for a text
// both accept, both give the same servers.
func parseStoredEpisodes(text string) (servers []Server, ok bool) {
	r := storedReader{s: text}
	if !r.lit("[") {
		return nil, false
	}
	if r.lit("]") {
		return nil, r.done()
	}
	// One array holds every server's episodes; each server's slice has
	// its own capacity, so that appending to one never writes another's.
	all := make([]Episode, 0, strings.Count(text, `{"name":`))
	for {
		var s Server
		if !r.lit(`{"server_name":`) || !r.str(&s.Name) || !r.lit(`,"server_data":[`) {
			return nil, false
		}
		first := len(all)
		for !r.lit("]") {
			if len(all) > first && !r.lit(",") {
				return nil, false
			}
			var e Episode
			if !r.lit(`{"name":`) || !r.str(&e.Name) || !r.lit(`,"slug":`) || !r.str(&e.Slug) ||
				!r.lit(`,"link_embed":`) || !r.str(&e.LinkEmbed) || !r.lit(`,"link_m3u8":`) || !r.str(&e.LinkM3U8) ||
				!r.lit("}") {
				return nil, false
			}
			all = append(all, e)
		}
		s.Episodes = all[first:len(all):len(all)]
		if !r.lit("}") {
			return nil, false
		}
		servers = append(servers, s)
		if r.lit("]") {
			return servers, r.done()
		}
		if !r.lit(",") {
			return nil, false
		}
	}
}

// storedReader walks the stored form of episodes.
type storedReader struct {
	s string
	i int
}

// lit consumes lit when the text continues with it.
func (r *storedReader) lit(lit string) bool {
	if !strings.HasPrefix(r.s[r.i:], lit) {
		return false
	}
	r.i += len(lit)
	return true
}

// str consumes a JSON string without escapes or control characters
// into dst; a string with either, or with invalid UTF-8, is not read
// here.
func (r *storedReader) str(dst *string) bool {
	if !r.lit(`"`) {
		return false
	}
	n := strings.IndexByte(r.s[r.i:], '"')
	if n < 0 {
		return false
	}
	v := r.s[r.i : r.i+n]
	wide := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' || c < 0x20:
			return false
		case c >= utf8.RuneSelf:
			wide = true
		}
	}
	if wide && !utf8.ValidString(v) {
		return false
	}
	*dst = v
	r.i += n + 1
	return true
}

func (r *storedReader) done() bool { return r.i == len(r.s) }
