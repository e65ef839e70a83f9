package catalog_test

import (
	"encoding/json"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"catalog/internal/catalog"
	"catalog/internal/fold"
)

// Native fuzz targets for the parsers of untrusted input that live in the
// domain package. Their seed corpora run with go test; .ci/run fuzzes
// each for a while. Limits are the contract's numbers, written out.

// numberSeeds are the awkward spellings of a number every numeric
// parameter meets.
var numberSeeds = []string{
	"", "0", "1", "20", "100", "101", "-1", "+1", "1.5", "1e3", " 1", "1 ", "0x10", "007",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
	"1\x00", "\x00", "\xff", "١٢", "１", "abc",
}

func FuzzParsePaging(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s, "", s, true, false, true)
		f.Add("", s, "", false, true, false)
	}
	f.Fuzz(func(t *testing.T, page, pg, limit string, hasPage, hasPg, hasLimit bool) {
		q := url.Values{}
		if hasPage {
			q.Set("page", page)
		}
		if hasPg {
			q.Set("pg", pg)
		}
		if hasLimit {
			q.Set("limit", limit)
		}
		p, err := catalog.ParsePaging(q, "page", "pg")
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Fatalf("%v: got error code %q, want %q", q, catalog.ErrorCode(err), catalog.EINVALID)
			}
			msg := catalog.ErrorMessage(err)
			if !strings.HasPrefix(msg, "page ") && !strings.HasPrefix(msg, "pg ") && !strings.HasPrefix(msg, "limit ") {
				t.Fatalf("%v: error %q does not name the parameter", q, msg)
			}
			return
		}
		// Contract 2: page >= 1, default 1; limit 1-100, default 20.
		if p.Page < 1 || p.Limit < 1 || p.Limit > 100 {
			t.Fatalf("%v: accepted page %d, limit %d", q, p.Page, p.Limit)
		}
		if !hasLimit && p.Limit != 20 {
			t.Fatalf("no limit: got %d, want 20", p.Limit)
		}
		given := ""
		switch {
		case hasPage:
			given = page
		case hasPg:
			given = pg
		default:
			if p.Page != 1 {
				t.Fatalf("no page: got %d, want 1", p.Page)
			}
		}
		if given != "" {
			if n, err := strconv.ParseInt(given, 10, 64); err != nil || n != p.Page || given[0] == '+' {
				t.Fatalf("page %q accepted as %d", given, p.Page)
			}
		}
		if hasLimit {
			if n, err := strconv.ParseUint(limit, 10, 64); (err == nil && min(n, 100) != uint64(p.Limit)) || (err != nil && p.Limit != 100) {
				t.Fatalf("limit %q accepted as %d", limit, p.Limit)
			}
		}
		if off := p.Offset(); off < 0 || (p.Page-1 <= math.MaxInt64/p.Limit && off != (p.Page-1)*p.Limit) {
			t.Fatalf("page %d limit %d: offset %d", p.Page, p.Limit, off)
		}
	})
}

func FuzzParseID(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := catalog.ParseID(s)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Fatalf("%q: got error code %q", s, catalog.ErrorCode(err))
			}
			return
		}
		if id < 1 {
			t.Fatalf("%q accepted as %d", s, id)
		}
		// Only decimal digits are accepted, so the number reads back.
		if strings.TrimLeft(s, "0") != strconv.FormatInt(id, 10) {
			t.Fatalf("%q accepted as %d", s, id)
		}
		if again, err := catalog.ParseID(strconv.FormatInt(id, 10)); err != nil || again != id {
			t.Fatalf("%d does not round-trip: %d, %v", id, again, err)
		}
	})
}

func FuzzParseFields(f *testing.F) {
	for _, s := range []string{"", "id", "id,title", " id , name ,id", "URL_player", ",,,", "title,\x00", "tit\xffle",
		"ID", "id;title", strings.Repeat("id,", 1000), "unknown"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, legacy bool) {
		set, err := catalog.ParseFields(s, legacy)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID || !strings.HasPrefix(catalog.ErrorMessage(err), "fields: unknown field ") {
				t.Fatalf("%q: got error %v", s, err)
			}
			return
		}
		all := catalog.AllFields(legacy)
		if set == 0 || set&^all != 0 {
			t.Fatalf("%q (legacy %v): got set %b, want a non-empty subset of %b", s, legacy, set, all)
		}
		// Round trip: the set's names, in any spelling the contract
		// allows, parse back to the same set.
		var names []string
		for i, name := range append(canonicalFields[:len(canonicalFields):len(canonicalFields)], "URL_player") {
			if set.Has(catalog.MovieField(i)) {
				if name == "title" {
					name = " name "
				}
				names = append(names, name, name)
			}
		}
		again, err := catalog.ParseFields(strings.Join(names, ","), legacy)
		if err != nil || again != set {
			t.Fatalf("%q: set %b does not round-trip through %q: %b, %v", s, set, names, again, err)
		}
	})
}

func FuzzSearchTerms(f *testing.F) {
	for _, s := range []string{"", "   ", "abc", "abc ABC abc", "abc\x00def", "\xff\xfe", "ก ข ค", "Straße STRASSE",
		"a\tb\nc", "e\u0301 é", strings.Repeat("word ", 300), "\u00a0x\u3000y", "İstanbul",
		"a\u02d8b", "0\u00a8", "\ufdfa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		terms := catalog.SearchTerms(q)
		if strings.TrimSpace(q) == "" && terms != nil {
			t.Fatalf("%q: got terms %q, want no filter", q, terms)
		}
		// The terms are the words of the folded query: NFKC may split a
		// word (a spacing accent such as ˘ becomes a space and a mark,
		// the ligature ﷺ four words), never join more than it had.
		if words := strings.Fields(fold.String(q)); len(terms) > len(words) {
			t.Fatalf("%q: %d terms from %d folded words", q, len(terms), len(words))
		}
		seen := map[string]bool{}
		for _, term := range terms {
			if term == "" || seen[term] {
				t.Fatalf("%q: empty or repeated term in %q", q, terms)
			}
			seen[term] = true
			if strings.IndexFunc(term, unicode.IsSpace) >= 0 && utf8.ValidString(term) {
				t.Fatalf("%q: term %q holds white space", q, term)
			}
		}
	})
}

func FuzzDecodeClipInput(f *testing.F) {
	for _, s := range []string{
		`{"title":"t","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}`,
		`{"title":null}`, `{}`, `[]`, `null`, `"x"`, `{"title":1}`, `{"id":1}`, `{"title":"a"}}`,
		`{"title":"a\u0000b","notes":"x\ny"}`, "{\"title\":\"\xff\"}", `{"title":"a","title":"b"}`,
		`{"notes":"` + strings.Repeat("n", 5001) + `"}`, `{"platform":"JAV","cover_url":""}`,
		strings.Repeat("[", 10000), `{"title":"` + strings.Repeat(`\ud800`, 10) + `"}`,
	} {
		f.Add([]byte(s))
	}
	platforms := testPlatforms(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := catalog.DecodeClipInput(body)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Fatalf("%q: got error code %q, want %q", body, catalog.ErrorCode(err), catalog.EINVALID)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("%q: invalid JSON accepted", body)
		}
		// Round trip: the decoded members, encoded again, decode to the
		// same input.
		members := map[string]*string{"title": in.Title, "iframe_url": in.IframeURL, "cover_url": in.CoverURL,
			"actor": in.Actor, "studio": in.Studio, "platform": in.Platform, "notes": in.Notes}
		enc, err := json.Marshal(members)
		if err != nil {
			t.Fatal(err)
		}
		again, err := catalog.DecodeClipInput(enc)
		if err != nil {
			t.Fatalf("%q: re-encoded as %s: %v", body, enc, err)
		}
		if !equalInputs(in, again) {
			t.Fatalf("%q: %s decodes differently", body, enc)
		}
		var c catalog.Clip
		if err := in.Apply(&c, platforms, true); err != nil {
			return
		}
		// Contract 3.5's limits hold for every clip accepted.
		for name, v := range map[string]struct {
			s   string
			max int
		}{"title": {c.Title, 300}, "actor": {c.Actor, 200}, "studio": {c.Studio, 200}, "notes": {c.Notes, 5000}} {
			if !utf8.ValidString(v.s) || utf8.RuneCountInString(v.s) > v.max || v.s != strings.TrimSpace(v.s) {
				t.Fatalf("%q: accepted %s %q", body, name, v.s)
			}
			for _, r := range v.s {
				if unicode.IsControl(r) && r != '\t' && (name != "notes" || r != '\n') {
					t.Fatalf("%q: accepted %s with control character %U", body, name, r)
				}
			}
		}
		if c.Title == "" {
			t.Fatalf("%q: accepted an empty title", body)
		}
		for name, u := range map[string]string{"iframe_url": c.IframeURL, "cover_url": c.CoverURL} {
			if u == "" && name == "cover_url" {
				continue
			}
			p, err := url.Parse(u)
			if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || len(u) > 2048 {
				t.Fatalf("%q: accepted %s %q", body, name, u)
			}
		}
	})
}

func equalInputs(a, b catalog.ClipInput) bool {
	eq := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return eq(a.Title, b.Title) && eq(a.IframeURL, b.IframeURL) && eq(a.CoverURL, b.CoverURL) &&
		eq(a.Actor, b.Actor) && eq(a.Studio, b.Studio) && eq(a.Platform, b.Platform) && eq(a.Notes, b.Notes)
}

// coverForms are contract 3.3's two cover forms.
var coverForms = regexp.MustCompile(`^(https://i\.ytimg\.com/vi/[A-Za-z0-9_-]{11}/hqdefault\.jpg|https://www\.dailymotion\.com/thumbnail/video/[A-Za-z0-9]+)$`)

func FuzzDeriveCover(f *testing.F) {
	for _, s := range []string{
		"https://www.youtube.com/embed/dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ/", "http://m.youtube.com/watch?v=dQw4w9WgXcQ&t=1",
		"https://WWW.YouTube-NoCookie.com/embed/dQw4w9WgXcQ", "https://dai.ly/x7tgad0", "https://geo.dailymotion.com/player.html?video=x7tgad0",
		"https://www.dailymotion.com/video/x7tgad0", "https://www.dailymotion.com/embed/video/x7tgad0",
		"https://youtu.be/dQw4w9WgXc%51", "https://youtu.be/dQw4w9WgXcQ\x00", "https://youtu.be/\xff\xff", "javascript:alert(1)",
		"https://evil.com/embed/dQw4w9WgXcQ", "https://youtube.com.evil.com/embed/dQw4w9WgXcQ", "https://user@youtu.be:99/dQw4w9WgXcQ",
		"  https://youtu.be/dQw4w9WgXcQ  ", "https://[::1]/x", "%", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, iframe string) {
		cover := catalog.DeriveCover(iframe)
		player := catalog.PlayerURL(iframe)
		if cover == "" {
			if player != iframe {
				t.Fatalf("%q: no cover but player %q", iframe, player)
			}
			return
		}
		if !coverForms.MatchString(cover) {
			t.Fatalf("%q: cover %q is not one of the contract's forms", iframe, cover)
		}
		// The player URL is a form of the same video: it derives the
		// same cover and is its own player.
		if again := catalog.DeriveCover(player); again != cover {
			t.Fatalf("%q: player %q derives %q, want %q", iframe, player, again, cover)
		}
		if catalog.PlayerURL(player) != player {
			t.Fatalf("%q: player %q is not stable", iframe, player)
		}
	})
}

// FuzzParseSearch holds the search text limits of contract 2 as literals:
// accepted text is valid UTF-8 without control characters, at most 256
// characters after trimming and 16 distinct words; anything else is a
// 400 naming the parameter.
func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{"", "  a  ", "abc\x00def", "a\x7fb", "\xff", strings.Repeat("x", 256), strings.Repeat("x", 257),
		" " + strings.Repeat("ก", 256) + " ", strings.Repeat("w ", 16), "a b c d e f g h i j k l m n o p q", "A a Ä ä ä"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		terms, err := catalog.ParseSearch("wd", q)
		trimmed := strings.TrimSpace(q)
		valid := utf8.ValidString(q) && strings.IndexFunc(q, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID || !strings.HasPrefix(catalog.ErrorMessage(err), "wd ") {
				t.Fatalf("%q: got %v, want a 400 naming wd", q, err)
			}
			if valid && utf8.RuneCountInString(trimmed) <= 256 && len(catalog.SearchTerms(trimmed)) <= 16 {
				t.Fatalf("%q: refused (%v) though within every limit", q, err)
			}
			return
		}
		if !valid || utf8.RuneCountInString(trimmed) > 256 || len(terms) > 16 {
			t.Fatalf("%q: accepted with %d characters and %d terms", q, utf8.RuneCountInString(trimmed), len(terms))
		}
	})
}
