package fold_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mozillazg/go-pinyin"

	"catalog/internal/fold"
)

// finds is the search rule of contract section 2 on one title: every
// word of the folded query occurs in the folded title.
func finds(title, query string) bool {
	ft := fold.String(title)
	for _, w := range strings.Fields(fold.String(query)) {
		if !strings.Contains(ft, w) {
			return false
		}
	}
	return true
}

func TestStringMatches(t *testing.T) {
	tests := []struct {
		name, title, query string
	}{
		// The examples of contract sections 2 and 11.
		{"case", "Sunset Over The Bay", "sunset BAY"},
		{"full-width Latin", "ＡＢＣ", "abc"},
		{"full-width code", "ＡＢＣ－１２３", "ABC-123"},
		{"code in a full-width query", "ABC-123 Title", "ＡＢＣ－１２３"},
		{"code lower-case", "ABC-123", "abc-123"},
		{"accent", "Café", "cafe"},
		{"accent in the query", "Cafe de Flore", "café"},
		{"Vietnamese tone", "Nhà", "nha"},
		{"Vietnamese two marks", "Tiếng Việt", "tieng viet"},
		{"Vietnamese upper case", "TIẾNG VIỆT", "tiếng việt"},
		{"Vietnamese đ", "đ", "d"},
		{"Vietnamese Đ", "Đà Nẵng", "da nang"},
		{"Vietnamese title", "Người Phán Xử", "nguoi phan xu"},
		{"traditional title, simplified query", "愛", "爱"},
		{"simplified title, traditional query", "爱情公寓", "愛情公寓"},
		{"traditional drama", "後宮甄嬛傳", "后宫甄嬛传"},
		{"hiragana title, katakana query", "かわいい", "カワイイ"},
		{"katakana title, hiragana query", "カワイイ", "かわいい"},
		{"half-width katakana", "ｶﾜｲｲ", "かわいい"},
		{"katakana voiced", "ガンダム", "がんだむ"},
		{"katakana iteration mark", "バヽ", "ばゝ"},
		// French, German, Polish and more of the Latin script.
		{"French", "Le Fabuleux Destin d'Amélie Poulain", "amelie"},
		{"French cedilla", "Garçon", "garcon"},
		{"French œ", "Cœur de pirate", "coeur"},
		{"French Œ", "ŒUVRE", "oeuvre"},
		{"German umlaut", "Müller", "muller"},
		{"German ß", "Straße", "strasse"},
		{"German ẞ", "STRAẞE", "straße"},
		{"German ß query", "STRASSE", "straße"},
		{"Polish ł", "Łódź", "lodz"},
		{"Polish", "Żółć", "zolc"},
		{"Danish ø", "Søren", "soren"},
		{"Danish æ", "Æblegrød", "aeblegrod"},
		{"Spanish", "Niño", "nino"},
		{"Czech", "Řeřicha", "rericha"},
		{"Turkish dotted İ", "İstanbul", "istanbul"},
		{"ligature", "ﬁnal", "final"},
		{"roman numeral", "Rocky Ⅱ", "rocky ii"},
		{"superscript", "m²", "m2"},
		{"ideographic space", "ＡＢＣ　ＤＥＦ", "abc def"},
		// Greek and Cyrillic lose their marks too.
		{"Greek", "Αθήνα", "αθηνα"},
		{"Greek final sigma", "ΟΔΥΣΣΕΥΣ", "οδυσσευς"},
		{"Cyrillic ё", "Ёлка", "елка"},
		// Other scripts keep their marks: the same text still matches.
		{"Thai", "คลิปหลุด ไทย", "ไทย"},
		{"Thai with marks", "ข้าวผัด", "ข้าว"},
		{"Thai sara am", "น้ำตก", "น้ำ"},
		{"Devanagari", "दिल वाले", "दिल"},
		{"Hangul", "사랑의 불시착", "사랑"},
		{"Chinese digits full-width", "第１話", "第1话"},
		{"one character", "東京", "东"},
		{"mixed title", "Sunset over the BAY at CAFÉ Déjà Vu — คลิปหลุด 東京", "deja 东京 คลิป"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !finds(tt.title, tt.query) {
				t.Errorf("%q does not find %q: folded %q and %q", tt.query, tt.title, fold.String(tt.query), fold.String(tt.title))
			}
		})
	}
}

func TestStringKeepsApart(t *testing.T) {
	tests := []struct {
		name, title, query string
	}{
		{"another letter", "Nhà", "nhu"},
		{"Thai tone mark", "ข่าว", "ข้าว"},              // news is not rice
		{"Thai mark missing in the title", "ไก", "ไก่"}, // the query's tone mark counts
		{"Thai vowel mark", "กิน", "กัน"},
		{"Japanese voicing", "かき", "がき"},
		{"Japanese semi-voicing", "ハハ", "パパ"},
		{"Japanese small kana", "つ", "っ"},
		{"kana is not kanji", "可愛い", "かわいい"},
		{"Hangul syllable", "가", "각"},
		{"Cyrillic a is not Latin a", "a", "а"},
		{"Greek o is not Latin o", "o", "ο"},
		{"Devanagari vowel sign", "कम", "काम"},
		{"a mark after a digit stays", "1", "1\u0301"},
		{"pinyin is no plain match", "星期三", "xingqisan"},
		{"all words must occur", "Tiếng Việt", "tieng anh"},
		{"simplified and traditional of another character", "爱", "受"},
		{"code digits", "ABC-123", "ＡＢＣ－１２４"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if finds(tt.title, tt.query) {
				t.Errorf("%q finds %q: folded %q and %q", tt.query, tt.title, fold.String(tt.query), fold.String(tt.title))
			}
		})
	}
}

func TestStringValues(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain ascii 123", "plain ascii 123"},
		{"MiXeD Case", "mixed case"},
		{"Tiếng Việt", "tieng viet"},
		{"ＡＢＣ－１２３", "abc-123"},
		{"đ ø ł ß æ œ", "d o l ss ae oe"},
		{"Đ Ø Ł ẞ Æ Œ", "d o l ss ae oe"},
		{"ǿ ǣ", "o ae"}, // a mark on a letter the fold respells
		{"愛情", "爱情"},
		{"薴", "苎"}, // OpenCC's chain 薴 -> 苧 -> 苎, followed to its end
		{"カワイイ", "かわいい"},
		{"ガ", "が"},
		{"ヴ", "ゔ"},
		{"ｶﾞ", "が"},      // half-width with a separate voicing mark
		{"ヷ", "わ\u3099"}, // no precomposed hiragana: the voicing mark stays
		{"ー", "ー"},       // the prolonged sound mark is both kana's
		{"が", "が"},
		{"น้ำ", "น\u0e49\u0e4d\u0e32"}, // NFKC spells sara am as nikhahit and sara aa
		{"e\u0301\u0323", "e"},
		{"\u0301e", "\u0301e"}, // a mark that follows no letter stays
		{"Ꮯꮯᏸ", "ᏟᏟᏰ"},         // Cherokee folds to its capitals
	}
	for _, tt := range tests {
		if got := fold.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStringASCIIAllocates(t *testing.T) {
	s := "already folded ascii title 123"
	if n := testing.AllocsPerRun(100, func() { _ = fold.String(s) }); n != 0 {
		t.Errorf("String of folded ASCII allocates %v times, want 0", n)
	}
}

func TestPinyin(t *testing.T) {
	tests := []struct{ title, full, initials string }{
		{"星期三", "xingqisan", "xqs"},
		{"绿女", "lvnv", "ln"},
		{"愛情公寓", "aiqinggongyu", "aqgy"}, // folded first: 爱情公寓
		{"老友記 Friends 第１季", "laoyoujidiji", "lyjdj"},
		{"Friends", "", ""},
		{"かわいい", "", ""},
		{"東京の夜", "", ""},                      // Japanese: kana beside the kanji
		{"ラーメン屋", "", ""},                     // katakana too
		{"東京・上海", "dongjingshanghai", "djsh"}, // the middle dot is no kana
		{"東京", "dongjing", "dj"},              // without kana, kanji are Chinese characters
		{"", "", ""},
	}
	for _, tt := range tests {
		full, initials := fold.Pinyin(fold.String(tt.title))
		if full != tt.full || initials != tt.initials {
			t.Errorf("Pinyin(%q) = %q, %q, want %q, %q", tt.title, full, initials, tt.full, tt.initials)
		}
	}
}

// TestPinyinAsGoPinyin checks the table read from go-pinyin against
// go-pinyin's own Normal and FirstLetter styles, character by character.
func TestPinyinAsGoPinyin(t *testing.T) {
	normal := pinyin.NewArgs()
	first := pinyin.NewArgs()
	first.Style = pinyin.FirstLetter
	n := 0
	for k := range pinyin.PinyinDict {
		s := string(rune(k))
		if fold.String(s) != s { // a traditional character: read its simplified form
			continue
		}
		want := pinyin.LazyPinyin(s, normal)
		wantInitial := pinyin.LazyPinyin(s, first)
		full, initials := fold.Pinyin(s)
		if len(want) != 1 || len(wantInitial) != 1 {
			t.Fatalf("go-pinyin gives %q, %q for %q", want, wantInitial, s)
		}
		if full != want[0] || initials != wantInitial[0] {
			t.Errorf("Pinyin(%q) = %q, %q; go-pinyin says %q, %q", s, full, initials, want[0], wantInitial[0])
			if n++; n > 20 {
				t.FailNow()
			}
		}
	}
}

func TestKeys(t *testing.T) {
	if got := fold.FullKey("xingqisan"); got != "XINGQISAN" {
		t.Errorf("FullKey = %q", got)
	}
	if got := fold.InitialsKey("xqs"); got != "\u0427\u0420\u0422" {
		t.Errorf("InitialsKey = %q", got)
	}
	if got := fold.InitialsKey("az"); got != "\u0410\u0429" {
		t.Errorf("InitialsKey = %q", got)
	}
	// No title or query folds into the keys' alphabets.
	for _, s := range []string{"XINGQISAN", "ЧРТ", "АБВГД ЕЁЖЗИЙ КЛМНОП РСТУФ ХЦЧШЩ", "Ⅻ", "ＡＢＣ"} {
		if f := fold.String(s); strings.ContainsFunc(f, fold.KeyAlphabet) {
			t.Errorf("String(%q) = %q holds a key letter", s, f)
		}
	}
}

func TestLatinWord(t *testing.T) {
	tests := []struct {
		term string
		want bool
	}{
		{"xqs", true},
		{"xingqisan", true},
		{"", false},
		{"abc-123", false},
		{"x1", false},
		{"café", false},
		{"爱", false},
	}
	for _, tt := range tests {
		if got := fold.LatinWord(tt.term); got != tt.want {
			t.Errorf("LatinWord(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
}

// TestShortcutsAgree: the one-pass folds of ASCII and of plain text
// give what the full fold gives, on many strings of pieces at the edges
// of the shortcuts (Thai marks in and out of canonical order and after
// a Latin letter, sara am, kana with separate voicing marks, half and
// full width, Han inside and outside the main blocks, Hangul).
func TestShortcutsAgree(t *testing.T) {
	pieces := []string{"a", "Z", "é", "1", " ", "-", "İ", "ß", "ก", "ข", "\u0e31", "\u0e38", "\u0e39", "\u0e3a", "\u0e48", "\u0e49",
		"\u0e33", "\u0e4d", "\u0e32", "か", "カ", "ガ", "\u3099", "\u309a", "ー", "・", "ヷ", "ヽ", "ゝ", "ｶ", "ﾞ", "Ａ", "\u3000",
		"愛", "爱", "東", "薴", "\U00020000", "\uf900", "한", "\u1100", "Ꮯ", "ꮯ", "ǿ"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := fold.String(s), fold.Slow(s); got != want {
			t.Fatalf("String(%q) = %q, the full fold gives %q", s, got, want)
		}
	}
}

// FuzzString checks that the fold is idempotent, that its output is
// valid UTF-8 for valid input, and that a title always finds itself: every
// word of it, folded, occurs in the folded title.
func FuzzString(f *testing.F) {
	for _, s := range []string{
		"", "abc", "Tiếng Việt", "ＡＢＣ－１２３", "愛情公寓", "カワイイ", "ｶﾞｷﾞ", "ข้าวผัด", "Straße ŒUVRE",
		"İstanbul", "ΟΔΥΣΣΕΥΣ", "a\u0301\u0301 \u0301x", "¨x", "ﬃ ǆ ㈱ ㍿", "ヷヸ", "薴",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || len(s) > 4096 {
			t.Skip("searched text is valid UTF-8 and short (ParseSearch and the validation of titles)")
		}
		once := fold.String(s)
		if !utf8.ValidString(once) {
			t.Fatalf("String(%q) = %q, not valid UTF-8", s, once)
		}
		if i := strings.IndexFunc(once, fold.KeyAlphabet); i >= 0 {
			t.Fatalf("String(%q) = %q holds %q, a letter of the pinyin keys' alphabets", s, once, once[i:])
		}
		if slow := fold.Slow(s); slow != once {
			t.Fatalf("String(%q) = %q, but the path without the ASCII shortcut gives %q", s, once, slow)
		}
		if twice := fold.String(once); twice != once {
			t.Fatalf("String not idempotent on %q: once %q, twice %q", s, once, twice)
		}
		for _, w := range strings.Fields(s) {
			if fw := fold.String(w); !strings.Contains(once, fw) {
				t.Fatalf("title %q does not find its word %q: folded %q and %q", s, w, once, fw)
			}
		}
		full, initials := fold.Pinyin(once)
		if len(initials) > len(full) || !fold.LatinWord(full) && full != "" {
			t.Fatalf("Pinyin(%q) = %q, %q", once, full, initials)
		}
	})
}
