package locale_test

import (
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"errors"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"catalog/internal/catalog"
	"catalog/internal/locale"
)

// messages reads a message file the way a translator sees it: id ->
// plural form -> text.
func messages(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := i18n.ParseMessageFileBytes(b, path, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]map[string]string{}
	for _, m := range mf.Messages {
		forms := map[string]string{}
		for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
			if text != "" {
				forms[form] = text
			}
		}
		out[m.ID] = forms
	}
	return out
}

var placeholderName = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)

func placeholders(text string) []string {
	var out []string
	for _, m := range placeholderName.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCatalogsComplete keeps every language whole: each file has every
// message of en.toml and no other, none empty or equal to its id, the
// plural forms its language needs, and only the values English puts in
// (a misspelt {{.Count}} would print "<no value>").
func TestCatalogsComplete(t *testing.T) {
	files, err := filepath.Glob("messages/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("message files: %v %v", files, err)
	}
	source := messages(t, "messages/en.toml")
	cat := locale.New()
	if got := len(cat.Languages()); got != len(files) {
		t.Fatalf("the catalog has %d languages, the folder %d files", got, len(files))
	}
	for _, f := range files {
		tag := strings.TrimSuffix(filepath.Base(f), ".toml")
		t.Run(tag, func(t *testing.T) {
			got := messages(t, f)
			for _, id := range slices.Sorted(maps.Keys(source)) {
				forms, ok := got[id]
				if !ok {
					t.Errorf("%s: no translation of %q", f, id)
					continue
				}
				if forms["other"] == "" {
					t.Errorf("%s: %q has no \"other\" form", f, id)
				}
				want := placeholders(strings.Join(slices.Collect(maps.Values(source[id])), " "))
				for form, text := range forms {
					if strings.TrimSpace(text) == "" {
						t.Errorf("%s: %q (%s) is empty", f, id, form)
					}
					if text == id {
						t.Errorf("%s: %q (%s) is its own id", f, id, form)
					}
					for _, p := range placeholders(text) {
						if !slices.Contains(want, p) && !(id == "format.date" && slices.Contains([]string{"Day", "Month", "MonthNumber", "Year", "BuddhistYear"}, p)) {
							t.Errorf("%s: %q (%s) uses {{.%s}}, which the page never gives", f, id, form, p)
						}
					}
				}
				// A problem's values are all translated or shown, so a
				// translation keeps every one of them.
				if strings.HasPrefix(id, "problem.") && !slices.Equal(placeholders(forms["other"]), want) {
					t.Errorf("%s: %q has values %v, English %v", f, id, placeholders(forms["other"]), want)
				}
			}
			for id := range got {
				if _, ok := source[id]; !ok {
					t.Errorf("%s: %q is not in en.toml", f, id)
				}
			}
			if tag == locale.Source {
				return
			}
			// English needs "one"; a translation of a counted message
			// needs its language's forms: Thai and Chinese have only
			// "other", so the same text serves every count.
			l := cat.Get(tag)
			for _, n := range []int{0, 1, 2, 1234} {
				if s := l.T("count.movies_showing", "From", 1, "To", 2, "Count", n); strings.Contains(s, "<no value>") || s == "count.movies_showing" {
					t.Errorf("%s: count %d gives %q", tag, n, s)
				}
			}
		})
	}
}

// TestTranslationsDiffer catches a translator's copy of the English:
// outside a short list of messages that are the same words in every
// language (names, formats), no translation equals its English text.
func TestTranslationsDiffer(t *testing.T) {
	same := map[string]bool{"form.failed": true, "format.duration_join": true}
	source := messages(t, "messages/en.toml")
	for _, tag := range []string{"th", "zh-Hans"} {
		got := messages(t, "messages/"+tag+".toml")
		for id, forms := range got {
			if same[id] {
				continue
			}
			if forms["other"] == source[id]["other"] {
				t.Errorf("%s: %q is the English text %q", tag, id, forms["other"])
			}
		}
	}
}

func TestMatch(t *testing.T) {
	cat := locale.New()
	for _, tc := range []struct {
		accept string
		want   string // "" for no match
	}{
		{"th", "th"},
		{"th-TH,th;q=0.9,en;q=0.8", "th"},
		{"zh-CN,zh;q=0.9", "zh-Hans"},
		{"zh-Hans", "zh-Hans"},
		{"zh", "zh-Hans"},
		{"en-US,en;q=0.9", "en"},
		{"en;q=0.2, th;q=0.9", "th"},
		{"fr;q=1, zh-CN;q=0.5", "zh-Hans"},
		{"th;q=0, en", "en"},
		{"th;q=0", ""},
		{"fr, de", ""},
		{"", ""},
		{"!!!", ""},
	} {
		got, ok := cat.Match(tc.accept)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", tc.accept, got, ok, tc.want)
		}
	}
}

// TestPick: the saved choice, then the switcher's cookie, then
// Accept-Language, then the default.
func TestPick(t *testing.T) {
	cat := locale.New()
	for _, tc := range []struct {
		name, saved, cookie, accept, def, want string
	}{
		{"default only", "", "", "", "th", "th"},
		{"no default", "", "", "", "", "en"},
		{"accept over default", "", "", "zh-CN", "th", "zh-Hans"},
		{"unknown accept, default", "", "", "fr", "zh-Hans", "zh-Hans"},
		{"cookie over accept", "", "th", "zh-CN", "en", "th"},
		{"bad cookie ignored", "", "xx", "zh-CN", "en", "zh-Hans"},
		{"saved over cookie", "zh-Hans", "th", "en", "en", "zh-Hans"},
		{"saved spelt in lower case", "zh-hans", "", "", "", "zh-Hans"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tc.accept != "" {
				r.Header.Set("Accept-Language", tc.accept)
			}
			if tc.cookie != "" {
				r.Header.Set("Cookie", locale.CookieName+"="+tc.cookie)
			}
			if got := cat.Pick(r, tc.def, tc.saved).Tag(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	cat := locale.New()
	day := time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	for _, tc := range []struct {
		tag                            string
		movies, movie, date, datetime  string
		bytes, size, duration, zeroDur string
	}{
		{"en", "Showing 1–20 of 1,234 movies", "Showing 1–1 of 1 movie", "27 November 2026", "27 November 2026, 14:05 UTC",
			"1 byte", "1.5 KiB", "1 hour 30 minutes", "0 seconds"},
		{"th", "แสดง 1–20 จาก 1,234 เรื่อง", "แสดง 1–1 จาก 1 เรื่อง", "27 พฤศจิกายน 2569", "27 พฤศจิกายน 2569 เวลา 14:05 น. (UTC)",
			"1 ไบต์", "1.5 KiB", "1 ชั่วโมง 30 นาที", "0 วินาที"},
		{"zh-Hans", "第 1–20 条，共 1,234 部影片", "第 1–1 条，共 1 部影片", "2026年11月27日", "2026年11月27日 14:05（UTC）",
			"1 字节", "1.5 KiB", "1小时30分钟", "0秒"},
	} {
		l := cat.Get(tc.tag)
		for _, c := range []struct{ got, want string }{
			{l.T("count.movies_showing", "From", 1, "To", 20, "Count", 1234), tc.movies},
			{l.T("count.movies_showing", "From", 1, "To", 1, "Count", 1), tc.movie},
			{l.Date(day), tc.date},
			{l.DateTime(day), tc.datetime},
			{l.Bytes(1), tc.bytes},
			{l.Bytes(1536), tc.size},
			{l.Duration(90 * time.Minute), tc.duration},
			{l.Duration(0), tc.zeroDur},
		} {
			if c.got != c.want {
				t.Errorf("%s: got %q, want %q", tc.tag, c.got, c.want)
			}
		}
	}
}

// TestProblems: every problem the domain writes for a form field or a
// page reads in Thai and Chinese, values kept; the English stays as the
// domain wrote it (the JSON API's text).
func TestProblems(t *testing.T) {
	cat := locale.New()
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	fields := func(err error) {
		t.Helper()
		var e *catalog.Error
		if !errors.As(err, &e) {
			t.Fatalf("not a domain error: %v", err)
		}
		if len(e.Fields) == 0 {
			texts = append(texts, e.Message)
		}
		for _, msg := range e.Fields {
			texts = append(texts, msg)
		}
	}
	clip := func(values map[string]string) {
		var in catalog.ClipInput
		for k, v := range values {
			in.Set(k, v)
		}
		var c catalog.Clip
		fields(in.Apply(&c, platforms, true))
	}
	clip(map[string]string{"title": "", "iframe_url": "ftp://x", "cover_url": "http://a b", "platform": "nope"})
	clip(map[string]string{"title": strings.Repeat("ก", 1000), "iframe_url": "", "notes": "a\x00b", "actor": "\x01"})
	clip(map[string]string{"title": "ok", "iframe_url": "https://" + strings.Repeat("a", catalog.MaxURLBytes) + ".example"})
	m := catalog.Movie{Name: "", Slug: "UP", Year: "20x", Release: "2020-02-31", Poster1URL: "nope",
		Episodes: []catalog.Server{{Name: "", Episodes: []catalog.Episode{{Name: ""}, {Name: "2", LinkEmbed: "x"}}}, {Name: "a"}}}
	fields(m.Normalize())
	_, err = catalog.NewSource("bad name!", "ftp://x", time.Second, 99999)
	fields(err)
	_, err = catalog.NewSource("", "", 0, 0)
	fields(err)
	_, err = catalog.NewAPIToken("", "bogus")
	fields(err)
	_, err = catalog.NewAPIToken("x", "")
	fields(err)
	_, err = catalog.ParseSearch("q", strings.Repeat("x ", 500))
	fields(err)
	_, err = catalog.ParseID("0")
	fields(err)
	_, err = catalog.ParseSort("loudest")
	fields(err)
	_, err = catalog.ParseYearRange("20x")
	fields(err)
	texts = append(texts,
		"line 3: link_m3u8 must be an absolute http or https URL",
		"There is no clip #12. It may have been deleted.",
		`There is no source named "peer".`,
		"is already used by movie #7: edit that movie instead",
		"the upload was cut after 1234 bytes: it took longer than 30m0s, the most one upload may take",
		"the upload was cut after 12 bytes: it sent less than 32 KiB in 30s",
		"the upload broke off after 99 bytes")
	if len(texts) < 20 {
		t.Fatalf("only %d problems: %q", len(texts), texts)
	}
	latin := regexp.MustCompile(`[A-Za-z]{3,}`)
	for _, tag := range []string{"th", "zh-Hans"} {
		l := cat.Get(tag)
		for _, text := range texts {
			got := l.Problem(text)
			if got == text {
				t.Errorf("%s: %q is not translated", tag, text)
				continue
			}
			// Only values and names of fields may stay in Latin letters.
			for _, w := range latin.FindAllString(got, -1) {
				if !strings.Contains(strings.Join([]string{"KiB", "movies", "UTF", "JSON", "YYYY", "URL", "http", "https", "provide", "vod", "ASCII", "link", "embed", "m3u8", "write", "clips", "import", "scope", "bogus", "peer", "nope", "ftp", "example", "JAV", "JAVJAV", "JAVJAVJAV", "MM", "DD", "search", "index", "limit", "sort", "new", "updated", "year", "score", "hits", "day", "week", "month", "title", "got"}, " "), w) {
					t.Errorf("%s: %q gives %q, with the English %q", tag, text, got, w)
				}
			}
		}
		if got := cat.Get("en").Problem(texts[0]); got != texts[0] {
			t.Errorf("en: %q became %q", texts[0], got)
		}
	}
}

// TestNewLanguage: a language is a file; dropping one in adds it, with
// its own name in the switcher, and English fills what it lacks.
func TestNewLanguage(t *testing.T) {
	cat := locale.New()
	if got := cat.Get("ja").Tag(); got != "en" {
		t.Fatalf("an unknown tag gives %s, want en", got)
	}
	names := map[string]string{}
	for _, l := range cat.Languages() {
		names[l.Tag] = l.Name
	}
	if want := map[string]string{"en": "English", "th": "ไทย", "zh-Hans": "简体中文"}; !maps.Equal(names, want) {
		t.Errorf("languages %v, want %v", names, want)
	}
}
