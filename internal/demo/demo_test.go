package demo_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

func platforms(tb testing.TB) *catalog.Platforms {
	tb.Helper()
	p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

var from = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestClipsAreValidAndVaried(t *testing.T) {
	pl := platforms(t)
	g := demo.NewGenerator(1, pl, from, time.Minute, 0)
	hosts := map[string]int{}
	scripts := map[string]bool{}
	var last time.Time
	for i := range 2000 {
		c := g.Clip()
		// The generated clip must pass the API's own create rules and
		// come out unchanged (cover derivation included).
		in := catalog.ClipInput{}
		for name, v := range map[string]string{"title": c.Title, "iframe_url": c.IframeURL, "actor": c.Actor,
			"studio": c.Studio, "platform": c.Platform, "notes": c.Notes} {
			in.Set(name, v)
		}
		var got catalog.Clip
		if err := in.Apply(&got, pl, true); err != nil {
			t.Fatalf("clip %d %+v: %v", i, c, err)
		}
		got.CreatedAt = c.CreatedAt
		if got != c {
			t.Fatalf("clip %d: validated form differs:\n got %+v\nwant %+v", i, got, c)
		}
		if c.CreatedAt.Before(last) || c.CreatedAt.Before(from) || !c.CreatedAt.Before(from.Add(2000*time.Minute)) {
			t.Fatalf("clip %d: created_at %v out of order or range", i, c.CreatedAt)
		}
		last = c.CreatedAt
		host := strings.SplitN(strings.TrimPrefix(c.IframeURL, "https://"), "/", 2)[0]
		hosts[host]++
		switch {
		case strings.ContainsAny(c.Title, "กขคงจฉชซญดตถทธนบปผพฟภมยรลวศสหอฮ"):
			scripts["thai"] = true
		case strings.ContainsFunc(c.Title, func(r rune) bool { return r >= 0x3040 && r <= 0x9fff }):
			scripts["japanese"] = true
		default:
			scripts["english"] = true
		}
	}
	for _, h := range []string{"www.youtube.com", "youtu.be", "www.dailymotion.com", "geo.dailymotion.com", "player.vimeo.com"} {
		if hosts[h] == 0 {
			t.Errorf("no clip on %s (hosts %v)", h, hosts)
		}
	}
	if len(scripts) != 3 {
		t.Errorf("title scripts: got %v, want english, thai and japanese", scripts)
	}
}

func TestMoviesAreNormalAndUnique(t *testing.T) {
	g := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	codes := map[string]bool{}
	slugs := map[string]bool{}
	for i := range 9000 { // past 8000, where the code number grows a digit
		m := g.Movie()
		n := m
		if err := n.Normalize(); err != nil {
			t.Fatalf("movie %d %+v: %v", i, m, err)
		}
		if !reflect.DeepEqual(n, m) {
			t.Fatalf("movie %d changes when normalised:\n got %+v\nwant %+v", i, n, m)
		}
		if codes[m.IDCode] || slugs[m.Slug] {
			t.Fatalf("movie %d: id_code %q or slug %q repeats", i, m.IDCode, m.Slug)
		}
		codes[m.IDCode], slugs[m.Slug] = true, true
	}
}

func TestDeterministic(t *testing.T) {
	a := demo.NewGenerator(7, platforms(t), from, time.Minute, 0)
	b := demo.NewGenerator(7, platforms(t), from, time.Minute, 0)
	for range 50 {
		if ca, cb := a.Clip(), b.Clip(); ca != cb {
			t.Fatalf("same seed, different clips: %+v vs %+v", ca, cb)
		}
		if ma, mb := a.Movie(), b.Movie(); !reflect.DeepEqual(ma, mb) {
			t.Fatalf("same seed, different movies: %+v vs %+v", ma, mb)
		}
	}
}

func TestFirstMovieContinuesNumbering(t *testing.T) {
	a := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	for range 100 {
		a.Movie()
	}
	b := demo.NewGenerator(2, platforms(t), from, time.Minute, 100)
	if ma, mb := a.Movie(), b.Movie(); ma.IDCode != mb.IDCode {
		t.Errorf("movie 100: got id_code %q from a fresh generator, want %q", mb.IDCode, ma.IDCode)
	}
}

func BenchmarkClip(b *testing.B) {
	g := demo.NewGenerator(1, platforms(b), from, time.Second, 0)
	for b.Loop() {
		g.Clip()
	}
}

func BenchmarkMovie(b *testing.B) {
	g := demo.NewGenerator(1, platforms(b), from, time.Second, 0)
	for b.Loop() {
		g.Movie()
	}
}

// A tenth of the demo's titles are series of 24 episodes, a third of
// those on two servers; the rest carry one episode, most with both link
// kinds.
func TestMovieEpisodesShares(t *testing.T) {
	g := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	var series, twoServers, both, embedOnly, hlsOnly int
	for range 300 {
		m := g.Movie()
		switch n := len(m.Episodes[0].Episodes); {
		case n == 24:
			series++
		case n != 1:
			t.Fatalf("%s: %d episodes, want 1 or 24", m.Name, n)
		}
		if len(m.Episodes) == 2 {
			twoServers++
		}
		switch e := m.Episodes[0].Episodes[0]; {
		case e.LinkEmbed != "" && e.LinkM3U8 != "":
			both++
		case e.LinkEmbed != "":
			embedOnly++
		default:
			hlsOnly++
		}
	}
	if series != 30 || twoServers != 10 || both != 240 || embedOnly != 30 || hlsOnly != 30 {
		t.Errorf("of 300: %d series, %d on two servers, %d with both kinds, %d embed only, %d HLS only; want 30, 10, 240, 30, 30",
			series, twoServers, both, embedOnly, hlsOnly)
	}
}

// TestMoviesShowFolding: the demo movies hold titles that only the
// search folding finds (contract 11): without marks, in simplified
// characters, in pinyin, and a full-width code typed plainly.
func TestMoviesShowFolding(t *testing.T) {
	g := demo.NewGenerator(1, platforms(t), from, time.Minute, 0)
	var texts []string
	for range 100 {
		m := g.Movie()
		texts = append(texts, catalog.SearchText(m.Name, m.IDCode))
	}
	for _, q := range []string{"hoi an", "海边的小镇", "sample-001", "cafe au lait", "ete a nice"} {
		terms := catalog.SearchTerms(q)
		if !slices.ContainsFunc(texts, func(s string) bool { return catalog.TextMatches(s, terms) }) {
			t.Errorf("%q finds no demo movie", q)
		}
	}
	for _, q := range []string{"haibian", "hbdxz"} {
		full, initials, _ := catalog.PinyinTerms(catalog.SearchTerms(q))
		if !slices.ContainsFunc(texts, func(s string) bool { return catalog.TextMatches(s, full) || catalog.TextMatches(s, initials) }) {
			t.Errorf("%q finds no demo movie by its pinyin", q)
		}
	}
}
