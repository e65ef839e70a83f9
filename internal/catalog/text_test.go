package catalog_test

import (
	"testing"

	"catalog/internal/catalog"
)

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://host/purge?key=s3cret":                        "http://host/purge?key=xxxxx",
		"https://user:pa55@host:8443/p?a=1&token=s3c":         "https://user:xxxxx@host:8443/p?a=xxxxx&token=xxxxx",
		"http://apikey@host/purge":                            "http://xxxxx@host/purge",
		"http://host/purge":                                   "http://host/purge",
		"http://host/purge?key=s3cret#frag":                   "http://host/purge?key=xxxxx",
		"http://host/%zz?key=s3cret":                          "(an unparsable URL)",
		"https://s.example/api.php/provide/vod/?apikey=S3CR3": "https://s.example/api.php/provide/vod/?apikey=xxxxx",
	} {
		if got := catalog.RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q): got %q, want %q", raw, got, want)
		}
	}
}

// Finding 14 of issue 35: links and posters carry no credentials, and
// names hold no bidirectional overrides, as they hold no control
// characters.
func TestStrangersText(t *testing.T) {
	valid := func() catalog.Movie {
		return catalog.Movie{Name: "A movie", Year: "2020", Episodes: []catalog.Server{{Name: "Main",
			Episodes: []catalog.Episode{{Name: "Ep 1", LinkEmbed: "https://player.example/e/1"}}}}}
	}
	for _, tc := range []struct {
		name   string
		change func(*catalog.Movie)
		field  string
	}{
		{"credentials in an embed link", func(m *catalog.Movie) {
			m.Episodes[0].Episodes[0].LinkEmbed = "https://user:pass@player.example/e/1"
		}, "episodes[0].server_data[0].link_embed"},
		{"user name in an HLS link", func(m *catalog.Movie) {
			m.Episodes[0].Episodes[0].LinkM3U8 = "https://trusted.example@evil.example/1.m3u8"
		}, "episodes[0].server_data[0].link_m3u8"},
		{"credentials in a poster", func(m *catalog.Movie) { m.Poster1URL = "https://k:s@img.example/p.jpg" }, "poster1_url"},
		{"override in the name", func(m *catalog.Movie) { m.Name = "abc\u202egnp.exe" }, "name"},
		{"isolate in a server name", func(m *catalog.Movie) { m.Episodes[0].Name = "Main\u2066" }, "episodes[0].server_name"},
		{"embedding in an episode name", func(m *catalog.Movie) { m.Episodes[0].Episodes[0].Name = "\u202bEp" }, "episodes[0].server_data[0].name"},
		{"override in an actor", func(m *catalog.Movie) { *catalog.MovieList(m, "actor") = catalog.NewList([]string{"Ann\u202d"}) }, "actor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := valid()
			tc.change(&m)
			e, ok := m.Normalize().(*catalog.Error)
			if !ok || e.Fields[tc.field] == "" {
				t.Fatalf("got %v, want an error on %s", m.Normalize(), tc.field)
			}
		})
	}
	// Right-to-left text itself, and marks, stay welcome.
	m := valid()
	m.Name, m.Synopsis = "فيلم \u200fجديد", "سطر\u202bمضمن\u202c"
	if err := m.Normalize(); err != nil {
		t.Errorf("right-to-left text: %v", err)
	}
	if _, err := catalog.NewSource("s", "https://key:secret@s.example/vod", 0, 0); err == nil {
		t.Error("a source URL with credentials was accepted")
	}
}
