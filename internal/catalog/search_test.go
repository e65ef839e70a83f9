package catalog_test

import (
	"slices"
	"testing"

	"catalog/internal/catalog"
)

func TestSearchTerms(t *testing.T) {
	tests := []struct {
		name, q string
		want    []string
	}{
		{"empty", "", nil},
		{"spaces only", "   ", nil},
		{"white space only", " \t\n\u3000 ", nil},
		{"one word", "Sunset", []string{"sunset"}},
		{"several words", "  Sunset   over\tthe BAY ", []string{"sunset", "over", "the", "bay"}},
		{"duplicates collapsed", "bay Bay BAY sea", []string{"bay", "sea"}},
		{"accents removed, case folded", "CAFÉ Déjà", []string{"cafe", "deja"}},
		{"sharp s", "STRASSE straße", []string{"strasse"}},
		{"greek final sigma", "ΟΔΥΣΣΕΥΣ οδυσσευς", []string{"οδυσσευσ"}},
		{"greek final sigma alone", "ς", []string{"σ"}},
		{"thai unchanged", "คลิปหลุด ทวิต", []string{"คลิปหลุด", "ทวิต"}},
		{"cjk simplified, kana as hiragana", "東京 タワー 서울", []string{"东京", "たわー", "서울"}},
		{"nfd input", "Cafe\u0301", []string{"cafe"}},
		{"nfc and nfd duplicates", "café Cafe\u0301 cafe", []string{"cafe"}},
		{"ideographic space separates", "東京\u3000タワー", []string{"东京", "たわー"}},
		{"full-width code", "ＡＢＣ－１２３", []string{"abc-123"}},
		{"full-width words", "ＡＢＣ　ＤＥＦ", []string{"abc", "def"}},
		{"traditional and simplified collapse", "愛 爱", []string{"爱"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := catalog.SearchTerms(tt.q)
			if !slices.Equal(got, tt.want) {
				t.Errorf("SearchTerms(%q) = %q, want %q", tt.q, got, tt.want)
			}
			if tt.want == nil && got != nil {
				t.Errorf("SearchTerms(%q) = %#v, want nil (no filter)", tt.q, got)
			}
		})
	}
}

// finds is a search of q over one record, as the index and the stores
// do it: the terms of q in the record's search text.
func finds(title, code, q string) bool {
	return catalog.TextMatches(catalog.SearchText(title, code), catalog.SearchTerms(q))
}

func TestSearchText(t *testing.T) {
	tests := []struct{ title, code, want string }{
		{"Sunset Over The Bay", "", "sunset over the bay"},
		{"Café", "", "cafe"},
		{"Summer in Kyoto", "ABC-123", "summer in kyoto\nabc-123"},
		{"Summer", "ＡＢＣ－１２３", "summer\nabc-123"},
		{"星期三", "", "星期三\nXINGQISAN\n\u0427\u0420\u0422"},
		{"後宮 2", "DEF-045", "后宫 2\ndef-045\nHOUGONG\n\u0417\u0416"},
		{"かわいい", "", "かわいい"},
	}
	for _, tt := range tests {
		if got := catalog.SearchText(tt.title, tt.code); got != tt.want {
			t.Errorf("SearchText(%q, %q) = %q, want %q", tt.title, tt.code, got, tt.want)
		}
	}
}

// TestSearchMatches: what a query finds, and what it must not, through
// SearchText and SearchTerms (the fold's own table is in internal/fold).
func TestSearchMatches(t *testing.T) {
	tests := []struct {
		name, title, code, q string
		want                 bool
	}{
		{"title word", "Summer in Kyoto", "", "KYOTO", true},
		{"code", "Summer in Kyoto", "ABC-123", "abc-123", true},
		{"code in full width", "Summer in Kyoto", "ABC-123", "ＡＢＣ－１２３", true},
		{"code and title word", "Summer in Kyoto", "ABC-123", "abc kyoto", true},
		{"code part", "Summer in Kyoto", "ABC-123", "123", true},
		{"no code for clips", "Summer in Kyoto", "", "abc-123", false},
		{"a term does not span title and code", "Summer in Kyoto", "ABC-123", "kyotoabc", false},
		{"accents", "Tiếng Việt", "", "tieng viet", true},
		{"traditional", "愛情公寓", "", "爱情", true},
		{"kana", "カワイイ", "", "かわいい", true},
		// The pinyin is only for the fallback's own terms.
		{"pinyin is no plain match", "星期三", "", "xingqisan", false},
		{"pinyin initials are no plain match", "星期三", "", "xqs", false},
		{"capitals are no key", "星期三", "", "XINGQI", false},
	}
	for _, tt := range tests {
		if got := finds(tt.title, tt.code, tt.q); got != tt.want {
			t.Errorf("%s: %q finds %q (code %q) = %v, want %v", tt.name, tt.q, tt.title, tt.code, got, tt.want)
		}
	}
}

func TestPinyinTerms(t *testing.T) {
	text := catalog.SearchText("星期三 第２季", "")
	tests := []struct {
		q                     string
		ok, findFull, findIni bool
	}{
		{"xingqisan", true, true, false},
		{"XingQi San", true, true, false},
		{"xqs", true, false, true},
		{"xqsdj", true, false, true},   // initials run on across words
		{"san xq", true, false, false}, // every term in one of the two, not across them
		{"xingqi 2", false, false, false},
		{"ＸＱＳ", true, false, true},
		{"Xīngqī", true, true, false}, // typed with its tones, which fold away
		{"東京", false, false, false},
		{"abc-123", false, false, false},
	}
	for _, tt := range tests {
		full, initials, ok := catalog.PinyinTerms(catalog.SearchTerms(tt.q))
		if ok != tt.ok {
			t.Errorf("PinyinTerms(%q): ok %v, want %v", tt.q, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if got := catalog.TextMatches(text, full); got != tt.findFull {
			t.Errorf("%q as full pinyin finds %q: %v, want %v", tt.q, text, got, tt.findFull)
		}
		if got := catalog.TextMatches(text, initials); got != tt.findIni {
			t.Errorf("%q as initials finds %q: %v, want %v", tt.q, text, got, tt.findIni)
		}
	}
}
