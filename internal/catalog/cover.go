package catalog

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// coverRule derives a cover image URL and an embeddable player URL from
// a known player URL.
// host is matched after lower-casing and dropping a leading "www." or "m.".
type coverRule struct {
	hosts []string
	// id extracts the video id from the parsed URL, "" when the URL does
	// not have one of the host's forms.
	id     func(u *url.URL) string
	valid  *regexp.Regexp
	cover  string // "%s" is replaced by the id
	player string // the host's embeddable player for the id
}

var (
	youtubeID     = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)
	dailymotionID = regexp.MustCompile(`^[A-Za-z0-9]+$`)
)

// pathID returns the path segment after prefix when the path is exactly
// prefix + one segment (an optional trailing slash is allowed).
func pathID(prefix string) func(u *url.URL) string {
	return func(u *url.URL) string {
		rest, ok := strings.CutPrefix(u.EscapedPath(), prefix)
		if !ok {
			return ""
		}
		return strings.TrimSuffix(rest, "/")
	}
}

// queryID returns query parameter key when the path is exactly path.
func queryID(path, key string) func(u *url.URL) string {
	return func(u *url.URL) string {
		if strings.TrimSuffix(u.EscapedPath(), "/") != path {
			return ""
		}
		return u.Query().Get(key)
	}
}

// coverRules is the one table of player hosts (contract 3.3). A third
// host is one more entry.
var coverRules = []coverRule{
	{hosts: []string{"youtube.com", "youtube-nocookie.com"}, id: pathID("/embed/"), valid: youtubeID, cover: "https://i.ytimg.com/vi/%s/hqdefault.jpg", player: "https://www.youtube-nocookie.com/embed/%s"},
	{hosts: []string{"youtube.com"}, id: queryID("/watch", "v"), valid: youtubeID, cover: "https://i.ytimg.com/vi/%s/hqdefault.jpg", player: "https://www.youtube-nocookie.com/embed/%s"},
	{hosts: []string{"youtu.be"}, id: pathID("/"), valid: youtubeID, cover: "https://i.ytimg.com/vi/%s/hqdefault.jpg", player: "https://www.youtube-nocookie.com/embed/%s"},
	{hosts: []string{"dailymotion.com"}, id: pathID("/embed/video/"), valid: dailymotionID, cover: "https://www.dailymotion.com/thumbnail/video/%s", player: "https://www.dailymotion.com/embed/video/%s"},
	{hosts: []string{"dailymotion.com"}, id: pathID("/video/"), valid: dailymotionID, cover: "https://www.dailymotion.com/thumbnail/video/%s", player: "https://www.dailymotion.com/embed/video/%s"},
	{hosts: []string{"dai.ly"}, id: pathID("/"), valid: dailymotionID, cover: "https://www.dailymotion.com/thumbnail/video/%s", player: "https://www.dailymotion.com/embed/video/%s"},
	{hosts: []string{"geo.dailymotion.com"}, id: queryID("/player.html", "video"), valid: dailymotionID, cover: "https://www.dailymotion.com/thumbnail/video/%s", player: "https://www.dailymotion.com/embed/video/%s"},
}

// DeriveCover returns the cover URL for a known player URL, or "" when
// the host is unknown or the URL does not fit one of the host's forms.
func DeriveCover(iframeURL string) string {
	if r, id := matchRule(iframeURL); r != nil {
		return strings.Replace(r.cover, "%s", id, 1)
	}
	return ""
}

// PlayerURL returns the embeddable player for a known player URL (a
// youtu.be or watch?v= link cannot be framed; its /embed/ form can), or
// iframeURL unchanged for other hosts.
func PlayerURL(iframeURL string) string {
	if r, id := matchRule(iframeURL); r != nil {
		return strings.Replace(r.player, "%s", id, 1)
	}
	return iframeURL
}

// matchRule finds the rule and video id for a player URL, or nil.
func matchRule(iframeURL string) (*coverRule, string) {
	u, err := url.Parse(strings.TrimSpace(iframeURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, ""
	}
	host := strings.ToLower(u.Hostname())
	if h, ok := strings.CutPrefix(host, "www."); ok {
		host = h
	} else if h, ok := strings.CutPrefix(host, "m."); ok {
		host = h
	}
	for i := range coverRules {
		r := &coverRules[i]
		if !slices.Contains(r.hosts, host) {
			continue
		}
		if id := r.id(u); r.valid.MatchString(id) {
			return r, id
		}
	}
	return nil, ""
}
