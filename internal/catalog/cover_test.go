package catalog_test

import (
	"testing"

	"catalog/internal/catalog"
)

func TestDeriveCover(t *testing.T) {
	const (
		yt = "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"
		dm = "https://www.dailymotion.com/thumbnail/video/x7tgad0"
	)
	tests := []struct {
		name, iframe, want string
	}{
		// YouTube forms (contract 3.3).
		{"youtube embed", "https://www.youtube.com/embed/dQw4w9WgXcQ", yt},
		{"youtube embed no www", "https://youtube.com/embed/dQw4w9WgXcQ", yt},
		{"youtube embed http", "http://www.youtube.com/embed/dQw4w9WgXcQ", yt},
		{"youtube embed trailing slash", "https://www.youtube.com/embed/dQw4w9WgXcQ/", yt},
		{"youtube embed with query", "https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&start=30", yt},
		{"youtube embed with fragment", "https://www.youtube.com/embed/dQw4w9WgXcQ#t=5", yt},
		{"youtube nocookie", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", yt},
		{"youtube nocookie no www", "https://youtube-nocookie.com/embed/dQw4w9WgXcQ", yt},
		{"youtube watch", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", yt},
		{"youtube watch extra params", "https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42s&list=PL1", yt},
		{"youtube watch mobile", "https://m.youtube.com/watch?v=dQw4w9WgXcQ", yt},
		{"youtube embed mobile", "https://m.youtube.com/embed/dQw4w9WgXcQ", yt},
		{"youtu.be", "https://youtu.be/dQw4w9WgXcQ", yt},
		{"youtu.be http with query", "http://youtu.be/dQw4w9WgXcQ?t=30", yt},
		{"upper-case host", "https://WWW.YOUTUBE.COM/embed/dQw4w9WgXcQ", yt},
		{"mixed-case youtu.be", "https://YouTu.Be/dQw4w9WgXcQ", yt},
		{"upper-case scheme", "HTTPS://www.youtube.com/embed/dQw4w9WgXcQ", yt},
		{"surrounding spaces", "  https://youtu.be/dQw4w9WgXcQ \n", yt},
		{"port", "https://www.youtube.com:443/embed/dQw4w9WgXcQ", yt},
		{"id with dash and underscore", "https://youtu.be/a-b_c-d_e-f", "https://i.ytimg.com/vi/a-b_c-d_e-f/hqdefault.jpg"},

		// Dailymotion forms.
		{"dailymotion embed", "https://www.dailymotion.com/embed/video/x7tgad0", dm},
		{"dailymotion embed no www", "https://dailymotion.com/embed/video/x7tgad0", dm},
		{"dailymotion video", "https://www.dailymotion.com/video/x7tgad0", dm},
		{"dailymotion video http", "http://dailymotion.com/video/x7tgad0?playlist=x6hynp", dm},
		{"dailymotion mobile", "https://m.dailymotion.com/video/x7tgad0", dm},
		{"dai.ly", "https://dai.ly/x7tgad0", dm},
		{"dai.ly upper case", "HTTPS://DAI.LY/x7tgad0", dm},
		{"dailymotion geo player", "https://geo.dailymotion.com/player.html?video=x7tgad0", dm},
		{"dailymotion geo player extra params", "https://geo.dailymotion.com/player.html?mute=1&video=x7tgad0&autoplay=0", dm},
		{"dailymotion geo player upper case", "https://GEO.DailyMotion.com/player.html?video=x7tgad0", dm},

		// Look-alike and wrong hosts.
		{"suffix look-alike", "https://youtube.com.evil.example/embed/dQw4w9WgXcQ", ""},
		{"prefix look-alike", "https://evilyoutube.com/embed/dQw4w9WgXcQ", ""},
		{"youtu.be look-alike", "https://notyoutu.be/dQw4w9WgXcQ", ""},
		{"userinfo trick", "https://youtube.com@evil.example/embed/dQw4w9WgXcQ", ""},
		{"userinfo trick youtu.be", "https://youtu.be@evil.example/dQw4w9WgXcQ", ""},
		{"dailymotion suffix look-alike", "https://dailymotion.com.evil.example/video/x7tgad0", ""},
		{"dailymotion prefix look-alike", "https://evildailymotion.com/video/x7tgad0", ""},
		{"dai.ly look-alike", "https://dai.ly.evil.example/x7tgad0", ""},
		{"subdomain not stripped", "https://evil.youtube.com.example/embed/dQw4w9WgXcQ", ""},
		{"other subdomain", "https://music.evil.example/embed/dQw4w9WgXcQ", ""},
		{"vimeo", "https://player.vimeo.com/video/76979871", ""},
		{"trailing dot host", "https://youtube.com./embed/dQw4w9WgXcQ", ""},
		{"geo form on main host", "https://www.dailymotion.com/player.html?video=x7tgad0", ""},
		{"watch form on youtu.be", "https://youtu.be/watch?v=dQw4w9WgXcQ", ""},

		// Ids of the wrong length or charset.
		{"youtube id too short", "https://www.youtube.com/embed/dQw4w9WgXc", ""},
		{"youtube id too long", "https://www.youtube.com/embed/dQw4w9WgXcQQ", ""},
		{"youtube id bad char", "https://www.youtube.com/embed/dQw4w9WgXc!", ""},
		{"youtube id escaped slash", "https://www.youtube.com/embed/dQw4w9W%2FXcQ", ""},
		{"youtube id non-ascii", "https://youtu.be/dQw4w9WgXcé", ""},
		{"youtube watch id too short", "https://www.youtube.com/watch?v=abc", ""},
		{"youtube watch no v", "https://www.youtube.com/watch?list=PL1", ""},
		{"youtube watch empty v", "https://www.youtube.com/watch?v=", ""},
		{"dailymotion id with dash", "https://www.dailymotion.com/video/x7tg-ad0", ""},
		{"dailymotion id with underscore", "https://www.dailymotion.com/video/x7tgad0_some-title", ""},
		{"dailymotion empty id", "https://www.dailymotion.com/video/", ""},
		{"dai.ly empty id", "https://dai.ly/", ""},
		{"geo player no video", "https://geo.dailymotion.com/player.html?mute=1", ""},
		{"geo player bad id", "https://geo.dailymotion.com/player.html?video=x7%20gad0", ""},

		// Extra path segments and wrong paths.
		{"youtube embed extra segment", "https://www.youtube.com/embed/dQw4w9WgXcQ/extra", ""},
		{"youtube embed nested", "https://www.youtube.com/embed/extra/dQw4w9WgXcQ", ""},
		{"youtu.be extra segment", "https://youtu.be/dQw4w9WgXcQ/extra", ""},
		{"youtube double trailing slash", "https://www.youtube.com/embed/dQw4w9WgXcQ//", ""},
		{"youtube watch extra path", "https://www.youtube.com/watch/extra?v=dQw4w9WgXcQ", ""},
		{"youtube unknown path", "https://www.youtube.com/v/dQw4w9WgXcQ", ""},
		{"youtube root", "https://www.youtube.com/", ""},
		{"dailymotion embed extra segment", "https://www.dailymotion.com/embed/video/x7tgad0/extra", ""},
		{"dailymotion video extra segment", "https://www.dailymotion.com/video/x7tgad0/extra", ""},
		{"geo player wrong path", "https://geo.dailymotion.com/player/x1.html?video=x7tgad0", ""},

		// Non-http schemes and garbage.
		{"javascript", "javascript:alert(1)//youtu.be/dQw4w9WgXcQ", ""},
		{"ftp", "ftp://youtu.be/dQw4w9WgXcQ", ""},
		{"file", "file:///youtu.be/dQw4w9WgXcQ", ""},
		{"data", "data:text/html,https://youtu.be/dQw4w9WgXcQ", ""},
		{"scheme-relative", "//youtu.be/dQw4w9WgXcQ", ""},
		{"no scheme", "youtu.be/dQw4w9WgXcQ", ""},
		{"no scheme www", "www.youtube.com/embed/dQw4w9WgXcQ", ""},
		{"opaque", "https:youtu.be/dQw4w9WgXcQ", ""},
		{"empty", "", ""},
		{"spaces", "   ", ""},
		{"garbage", "%%%not a url", ""},
		{"bad escape in host", "https://you%zztube.com/embed/dQw4w9WgXcQ", ""},
		{"control character", "https://youtu.be/dQw4w9WgXcQ\x00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := catalog.DeriveCover(tt.iframe); got != tt.want {
				t.Errorf("DeriveCover(%q) = %q, want %q", tt.iframe, got, tt.want)
			}
		})
	}
}

func TestPlayerURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"},
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"},
		{"https://www.youtube.com/embed/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"},
		{"https://dai.ly/x8abc12", "https://www.dailymotion.com/embed/video/x8abc12"},
		{"https://geo.dailymotion.com/player.html?video=x8abc12", "https://www.dailymotion.com/embed/video/x8abc12"},
		{"https://player.vimeo.com/video/1", "https://player.vimeo.com/video/1"},
		{"https://youtube.com.evil.example/embed/dQw4w9WgXcQ", "https://youtube.com.evil.example/embed/dQw4w9WgXcQ"},
	}
	for _, tt := range tests {
		if got := catalog.PlayerURL(tt.in); got != tt.want {
			t.Errorf("PlayerURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
