package web

import (
	"net/url"
	"strings"
)

// PlayerHosts are the player origins every clip page may frame. They are
// listed even when a clip's own URL names a sibling host, because the
// players redirect between them (youtube.com -> www.youtube.com) and a
// redirect target must pass frame-src too.
var PlayerHosts = []string{
	"https://www.youtube.com",
	"https://www.youtube-nocookie.com",
	"https://www.dailymotion.com",
	"https://geo.dailymotion.com",
}

// frameOrigin returns the origin of a player URL for frame-src, or ""
// when the URL cannot be framed safely. Only characters that can appear
// in a host are let through, so that a stored URL can never add a
// directive to the policy header.
func frameOrigin(player string) string {
	u, err := url.Parse(player)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	host := strings.ToLower(u.Host)
	for _, c := range host {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-', c == ':', c == '[', c == ']':
		default:
			return ""
		}
	}
	return u.Scheme + "://" + host
}

// playerFrameSrc is the frame-src of a clip page: the known player hosts
// plus the clip's own origin when it is another host.
func playerFrameSrc(origin string) []string {
	src := PlayerHosts
	for _, h := range PlayerHosts {
		if h == origin {
			return src
		}
	}
	return append(append([]string(nil), src...), origin)
}
