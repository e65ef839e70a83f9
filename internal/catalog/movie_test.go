package catalog_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

var canonicalFields = []string{"id", "title", "slug", "year", "poster1_url", "poster2_url",
	"categories", "actor", "director", "studio", "genre", "country", "synopsis", "id_code", "release", "score", "douban_id", "hits", "hits_day", "hits_week", "hits_month", "episodes"}

// fieldNames lists the names in fs in canonical order.
func fieldNames(fs catalog.FieldSet) []string {
	var names []string
	for f := catalog.FieldID; f <= catalog.FieldURLPlayer; f++ {
		if fs.Has(f) {
			names = append(names, f.Name())
		}
	}
	return names
}

func TestParseFields(t *testing.T) {
	legacyAll := append(slices.Clone(canonicalFields), "URL_player")
	tests := []struct {
		name    string
		in      string
		legacy  bool
		want    []string
		unknown string // the name the error must mention
	}{
		{name: "empty means all", in: "", want: canonicalFields},
		{name: "empty legacy means all with URL_player", in: "", legacy: true, want: legacyAll},
		{name: "only commas and spaces mean all", in: " , ,", want: canonicalFields},
		{name: "one", in: "title", want: []string{"title"}},
		{name: "spaces ignored", in: " id ,  title ", want: []string{"id", "title"}},
		{name: "canonical order", in: "release,id,country,title", want: []string{"id", "title", "country", "release"}},
		{name: "duplicates collapse", in: "id,id,title,id", want: []string{"id", "title"}},
		{name: "name alias", in: "name", want: []string{"title"}},
		{name: "name and title collapse", in: "title,name", want: []string{"title"}},
		{name: "empty items skipped", in: "id,,slug,", want: []string{"id", "slug"}},
		{name: "every field", in: strings.Join(canonicalFields, ","), want: canonicalFields},
		{name: "URL_player legacy", in: "URL_player,id", legacy: true, want: []string{"id", "URL_player"}},

		{name: "unknown", in: "id,foo", unknown: "foo"},
		{name: "unknown legacy", in: "bogus", legacy: true, unknown: "bogus"},
		{name: "case sensitive", in: "Title", unknown: "Title"},
		{name: "URL_player not on movies", in: "id,URL_player", unknown: "URL_player"},
		{name: "link_embed is not a field", in: "link_embed", unknown: "link_embed"},
		{name: "inner space", in: "id code", unknown: "id code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := catalog.ParseFields(tt.in, tt.legacy)
			if tt.unknown != "" {
				if err == nil {
					t.Fatalf("ParseFields(%q) = %q, want an error", tt.in, fieldNames(fs))
				}
				if code := catalog.ErrorCode(err); code != catalog.EINVALID {
					t.Errorf("code = %q, want %q", code, catalog.EINVALID)
				}
				if msg := catalog.ErrorMessage(err); !strings.Contains(msg, tt.unknown) {
					t.Errorf("message %q does not name %q", msg, tt.unknown)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseFields(%q): %v", tt.in, err)
			}
			if got := fieldNames(fs); !slices.Equal(got, tt.want) {
				t.Errorf("ParseFields(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func testMovie() catalog.Movie {
	m := catalog.Movie{ID: 42, Name: `The "Best" Movie`, Slug: "the-best-movie", Year: "2019",
		Poster1URL: "https://img.example/1.jpg", Synopsis: "Line one\nline two </script>",
		IDCode: "ABC-123", Release: "2019-05-01",
		Episodes: catalog.ShorthandEpisodes("https://player.example/e/1", "")}
	m.Lists[0] = catalog.NewList([]string{"Drama", "Thriller"})
	m.Lists[1] = catalog.NewList([]string{"Ann", "คุณสมชาย"})
	m.Lists[5] = catalog.NewList([]string{"TH"})
	return m
}

// decodeOrdered returns the keys of a JSON object in document order and
// the decoded values.
func decodeOrdered(t testing.TB, b []byte) ([]string, map[string]any) {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("not valid JSON: %s", b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", b)
	}
	var keys []string
	values := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
		values[k] = v
	}
	return keys, values
}

func TestMovieAppendJSON(t *testing.T) {
	m := testMovie()
	t.Run("movies form", func(t *testing.T) {
		keys, v := decodeOrdered(t, m.AppendJSON(nil, catalog.AllFields(false), false))
		if !slices.Equal(keys, canonicalFields) {
			t.Errorf("keys = %q, want %q", keys, canonicalFields)
		}
		if v["id"] != json.Number("42") {
			t.Errorf("id = %#v, want the number 42", v["id"])
		}
		if v["title"] != `The "Best" Movie` || v["year"] != "2019" || v["release"] != "2019-05-01" {
			t.Errorf("title/year/release = %#v %#v %#v", v["title"], v["year"], v["release"])
		}
		if got, ok := v["actor"].([]any); !ok || len(got) != 2 || got[1] != "คุณสมชาย" {
			t.Errorf("actor = %#v, want an array of two", v["actor"])
		}
		for _, empty := range []string{"director", "studio", "genre"} {
			if got, ok := v[empty].([]any); !ok || len(got) != 0 {
				t.Errorf("%s = %#v, want []", empty, v[empty])
			}
		}
		if v["poster2_url"] != "" {
			t.Errorf("poster2_url = %#v, want \"\"", v["poster2_url"])
		}
	})
	t.Run("legacy form", func(t *testing.T) {
		keys, v := decodeOrdered(t, m.AppendJSON(nil, catalog.AllFields(true), true))
		if want := append(slices.Clone(canonicalFields), "URL_player"); !slices.Equal(keys, want) {
			t.Errorf("keys = %q, want %q", keys, want)
		}
		if v["categories"] != "Drama, Thriller" || v["actor"] != "Ann, คุณสมชาย" || v["country"] != "TH" {
			t.Errorf("lists = %#v %#v %#v, want joined strings", v["categories"], v["actor"], v["country"])
		}
		if v["director"] != "" {
			t.Errorf("empty list = %#v, want \"\"", v["director"])
		}
		player, ok := v["URL_player"].(map[string]any)
		if !ok {
			t.Fatalf("URL_player = %#v, want an object", v["URL_player"])
		}
		sd, ok := player["server_data"].(map[string]any)
		if !ok || len(player) != 1 || len(sd) != 1 || sd["link_embed"] != "https://player.example/e/1" {
			t.Errorf(`URL_player = %#v, want {"server_data":{"link_embed":"https://player.example/e/1"}}`, player)
		}
	})
	t.Run("URL_player empty link", func(t *testing.T) {
		var bare catalog.Movie
		fs, _ := catalog.ParseFields("URL_player", true)
		if got, want := string(bare.AppendJSON(nil, fs, true)), `{"URL_player":{"server_data":{"link_embed":""}}}`; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("URL_player never on movies form", func(t *testing.T) {
		if got := string(m.AppendJSON(nil, catalog.AllFields(true), false)); strings.Contains(got, "URL_player") {
			t.Errorf("movies form carries URL_player: %s", got)
		}
	})
	t.Run("zero movie", func(t *testing.T) {
		var zero catalog.Movie
		want := `{"id":0,"title":"","slug":"","year":"","poster1_url":"","poster2_url":"","categories":[],"actor":[],"director":[],"studio":[],"genre":[],"country":[],"synopsis":"","id_code":"","release":"","score":"","douban_id":"","hits":"0","hits_day":"0","hits_week":"0","hits_month":"0","episodes":[]}`
		if got := string(zero.AppendJSON(nil, catalog.AllFields(false), false)); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
		wantLegacy := `{"id":0,"title":"","slug":"","year":"","poster1_url":"","poster2_url":"","categories":"","actor":"","director":"","studio":"","genre":"","country":"","synopsis":"","id_code":"","release":"","score":"","douban_id":"","hits":"0","hits_day":"0","hits_week":"0","hits_month":"0","episodes":[],"URL_player":{"server_data":{"link_embed":""}}}`
		if got := string(zero.AppendJSON(nil, catalog.AllFields(true), true)); got != wantLegacy {
			t.Errorf("got  %s\nwant %s", got, wantLegacy)
		}
	})
	t.Run("selection in canonical order", func(t *testing.T) {
		for _, legacy := range []bool{false, true} {
			fs, err := catalog.ParseFields("release, actor,name,id", legacy)
			if err != nil {
				t.Fatal(err)
			}
			keys, _ := decodeOrdered(t, m.AppendJSON([]byte{}, fs, legacy))
			if want := []string{"id", "title", "actor", "release"}; !slices.Equal(keys, want) {
				t.Errorf("legacy=%v keys = %q, want %q", legacy, keys, want)
			}
		}
	})
	t.Run("appends", func(t *testing.T) {
		fs, _ := catalog.ParseFields("id", false)
		if got := string(m.AppendJSON([]byte(`[`), fs, false)); got != `[{"id":42}` {
			t.Errorf("got %s", got)
		}
	})
}

func TestNewList(t *testing.T) {
	tests := []struct {
		name         string
		items        []string
		json, joined string
	}{
		{"nil", nil, `[]`, ``},
		{"only empties", []string{"", "  ", "\t"}, `[]`, ``},
		{"trim and dedupe", []string{" Drama ", "Drama", "", "Thriller", "Drama "}, `["Drama","Thriller"]`, `Drama, Thriller`},
		{"NFC before dedupe", []string{"Café", "Cafe\u0301"}, `["Café"]`, `Café`},
		{"case kept", []string{"drama", "Drama"}, `["drama","Drama"]`, `drama, Drama`},
		{"escaping", []string{`a"b`, `c\d`, "e</f>", "g\u2028h"}, `["a\"b","c\\d","e</f>","g\u2028h"]`, "a\"b, c\\d, e</f>, g\u2028h"},
		{"thai", []string{"คุณสมชาย", " คุณสมหญิง "}, `["คุณสมชาย","คุณสมหญิง"]`, `คุณสมชาย, คุณสมหญิง`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := catalog.NewList(tt.items)
			if l.JSON != tt.json || l.Joined != tt.joined {
				t.Errorf("NewList(%q) = %q / %q, want %q / %q", tt.items, l.JSON, l.Joined, tt.json, tt.joined)
			}
			if !json.Valid([]byte(l.JSON)) {
				t.Errorf("JSON form %q is not valid JSON", l.JSON)
			}
		})
	}
}

func TestMovieNormalize(t *testing.T) {
	valid := func() catalog.Movie {
		return catalog.Movie{Name: "  Hello, World!  ", Year: " 2019 ", Release: " 2019-05-01 ",
			Poster1URL: " https://img.example/p.jpg ", Episodes: catalog.ShorthandEpisodes("http://player.example/e/1", ""), Synopsis: "a\r\nb"}
	}
	t.Run("cleans and derives slug", func(t *testing.T) {
		m := valid()
		if err := m.Normalize(); err != nil {
			t.Fatal(err)
		}
		if m.Name != "Hello, World!" || m.Slug != "hello-world" || m.Year != "2019" || m.Release != "2019-05-01" ||
			m.Poster1URL != "https://img.example/p.jpg" || m.Synopsis != "a\nb" {
			t.Errorf("normalised movie = %+v", m)
		}
	})
	t.Run("given slug kept", func(t *testing.T) {
		m := valid()
		m.Slug = " my-slug "
		if err := m.Normalize(); err != nil || m.Slug != "my-slug" {
			t.Errorf("slug = %q, %v, want my-slug", m.Slug, err)
		}
	})
	t.Run("empty release allowed", func(t *testing.T) {
		m := valid()
		m.Release = ""
		if err := m.Normalize(); err != nil {
			t.Errorf("Normalize: %v", err)
		}
	})
	tests := []struct {
		name   string
		change func(*catalog.Movie)
		fields []string
	}{
		{"name missing", func(m *catalog.Movie) { m.Name = "" }, []string{"name"}},
		{"name blank", func(m *catalog.Movie) { m.Name = " \t " }, []string{"name"}},
		{"negative id", func(m *catalog.Movie) { m.ID = -1 }, []string{"id"}},
		{"release impossible day", func(m *catalog.Movie) { m.Release = "2019-02-30" }, []string{"release"}},
		{"release short parts", func(m *catalog.Movie) { m.Release = "2019-2-3" }, []string{"release"}},
		{"release month 13", func(m *catalog.Movie) { m.Release = "2019-13-01" }, []string{"release"}},
		{"release with time", func(m *catalog.Movie) { m.Release = "2019-05-01T00:00:00Z" }, []string{"release"}},
		{"release other format", func(m *catalog.Movie) { m.Release = "01/05/2019" }, []string{"release"}},
		{"release year only", func(m *catalog.Movie) { m.Release = "2019" }, []string{"release"}},
		{"release not leap", func(m *catalog.Movie) { m.Release = "2019-02-29" }, []string{"release"}},
		{"javascript poster", func(m *catalog.Movie) { m.Poster1URL = "javascript:alert(1)" }, []string{"poster1_url"}},
		{"relative poster", func(m *catalog.Movie) { m.Poster2URL = "/p.jpg" }, []string{"poster2_url"}},
		{"ftp link", func(m *catalog.Movie) { m.Episodes[0].Episodes[0].LinkEmbed = "ftp://x.example/v" }, []string{"episodes[0].server_data[0].link_embed"}},
		{"control character in name", func(m *catalog.Movie) { m.Name = "a\x00b" }, []string{"name"}},
		{"everything", func(m *catalog.Movie) {
			m.Name, m.Release, m.Poster1URL, m.Episodes[0].Episodes[0].LinkEmbed = "", "2019-02-30", "javascript:x", "x"
		}, []string{"episodes[0].server_data[0].link_embed", "name", "poster1_url", "release"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := valid()
			tt.change(&m)
			if got := errorFields(t, m.Normalize()); !slices.Equal(got, tt.fields) {
				t.Errorf("failing fields = %q, want %q", got, tt.fields)
			}
		})
	}
	t.Run("leap day accepted", func(t *testing.T) {
		m := valid()
		m.Release = "2020-02-29"
		if err := m.Normalize(); err != nil {
			t.Errorf("Normalize: %v", err)
		}
	})
	t.Run("error is a validation error", func(t *testing.T) {
		m := catalog.Movie{}
		var e *catalog.Error
		if err := m.Normalize(); !errors.As(err, &e) || e.Fields["name"] != "is required" {
			t.Errorf("err = %v, want name is required", err)
		}
	})
}

func TestSlugify(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"Hello, World!", "hello-world"},
		{"Café Déjà Vu", "cafe-deja-vu"},
		{"Cafe\u0301 De\u0301ja\u0300 Vu", "cafe-deja-vu"}, // NFD input
		{"  --Leading and trailing--  ", "leading-and-trailing"},
		{"Mission: Impossible 2", "mission-impossible-2"},
		{"ÀÉÎÕÜ ñ", "aeiou-n"},
		{"Ærø Straße Łódź", "aero-strasse-lodz"}, // letters without a decomposition
		{"Þór Đurić", "thor-duric"},
		{"สวัสดีชาวโลก", "สวัสดีชาวโลก"},   // Thai letters and vowel marks kept
		{"ผีเสื้อ สมุทร", "ผีเสื้อ-สมุทร"}, // tone marks kept
		{"東京タワー", "東京タワー"},                 // CJK kept
		{"東京 Tower 2020", "東京-tower-2020"},
		{"Ελληνικά Νέα", "ελληνικά-νέα"}, // other scripts keep their marks
		{"!!! ???", "movie"},             // punctuation only
		{"", "movie"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := catalog.Slugify(tt.name); got != tt.want {
				t.Errorf("Slugify(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

// The contract's slug alphabet: lower case, ASCII letters, digits and
// dashes for Latin names.
func TestSlugifyLatinIsASCII(t *testing.T) {
	for _, name := range []string{"Café Déjà Vu", "Ærø Straße Łódź", "Çà et là", "Ñandú Über", "x²"} {
		got := catalog.Slugify(name)
		for _, r := range got {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				t.Errorf("Slugify(%q) = %q has %q outside [a-z0-9-]", name, got, r)
				break
			}
		}
		if strings.HasPrefix(got, "-") || strings.HasSuffix(got, "-") || strings.Contains(got, "--") {
			t.Errorf("Slugify(%q) = %q has stray dashes", name, got)
		}
	}
}
