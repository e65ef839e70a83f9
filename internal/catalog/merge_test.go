package catalog_test

import (
	"testing"

	"catalog/internal/catalog"
)

func TestTitleKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"星期三", "星期三"},
		{"星期 三！", "星期三"},
		{"愛情公寓", "爱情公寓"},
		{"The Night-Watch", "the night watch"},
		{"ｔｈｅ　ｎｉｇｈｔ：ｗａｔｃｈ", "thenightwatch"},
		{"Amélie", "amelie"},
		{"ที่รัก", "ที่ รัก"}, // Thai marks stay, the space goes
	} {
		if ka, kb := catalog.TitleKey(tc.a), catalog.TitleKey(tc.b); ka != kb || ka == "" {
			t.Errorf("TitleKey(%q) = %q, TitleKey(%q) = %q; want equal and not empty", tc.a, ka, tc.b, kb)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"星期三", "星期叁"}, // 叁 is not a variant of 三 in OpenCC's table
		{"Night Watch", "The Night Watch"},
		{"ที่รัก", "ทรัก"}, // the marks are part of the title
	} {
		if catalog.TitleKey(tc.a) == catalog.TitleKey(tc.b) {
			t.Errorf("TitleKey(%q) == TitleKey(%q) = %q; want them apart", tc.a, tc.b, catalog.TitleKey(tc.a))
		}
	}
	if k := catalog.TitleKey("!!! …"); k != "" {
		t.Errorf(`TitleKey of punctuation only = %q, want ""`, k)
	}
}

func TestParseMatch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want catalog.Match
		ok   bool
	}{
		{"name,year", catalog.DefaultMatch, true},
		{" year , name ", catalog.DefaultMatch, true},
		{"douban_id", catalog.MatchDoubanID, true},
		{"name,category,actor", catalog.MatchName | catalog.MatchCategory | catalog.MatchActor, true},
		{"year,category", 0, false}, // neither name nor douban_id
		{"name,area", 0, false},
		{"", 0, false},
	} {
		got, err := catalog.ParseMatch(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseMatch(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err == nil && catalog.StoredMatch(got.String()) != got {
			t.Errorf("%v.String() = %q does not read back", got, got.String())
		}
		if err != nil && catalog.ErrorCode(err) != catalog.EINVALID {
			t.Errorf("ParseMatch(%q): error code %s, want EINVALID", tc.in, catalog.ErrorCode(err))
		}
	}
}
