package storetest

import (
	"fmt"
	"testing"

	"catalog/internal/catalog"
)

// runSearch holds the stores to contract 2 and 11: substring search on
// the title folded for case, width, accents, Chinese variants and kana,
// every term must occur, short terms work, no character of the query
// is special, and Latin letters that match nothing are tried as pinyin.
func runSearch(t *testing.T, open func(t *testing.T) catalog.Store) {
	t.Run("Rules", func(t *testing.T) {
		s := open(t)
		titles := []struct{ key, title, platform string }{
			{"bay", "Sunset over the Bay", "JAV"},
			{"blvd", "SUNSET Boulevard", "ทวิต"},
			{"thai", "คลิปหลุด ดาราสาว", "คลิปหลุด"},
			{"tokyo", "東京の夜景", ""},
			{"jp", "ラーメン屋さん", ""},
			{"cafe", "Café de Flore", ""},
			{"greek", "ΟΔΥΣΣΕΑΣ στο νησί", ""},
			{"special", `100% pure_fun "quoted" it's a\b`, ""},
			{"plain", "100 pure fun quoted its", ""},
			{"xfun", "pureXfun", ""},
			{"viet", "Tiếng Việt cho người mới", ""},
			{"zh", "愛情公寓 第２季", ""},
			{"kana", "かわいい猫", ""},
			{"code", "ＡＢＣ－１２３ sample", ""},
			{"polish", "Łódź nocą", ""},
			{"xqs", "星期三", ""},
			{"road", "Aiqing Road", ""},
		}
		id := map[string]int64{}
		for _, tt := range titles {
			id[tt.key] = createClip(t, s, tt.title, tt.platform).ID
		}
		ids := func(keys ...string) []int64 { // newest first, as listed
			var out []int64
			for i := len(titles) - 1; i >= 0; i-- {
				for _, k := range keys {
					if titles[i].key == k {
						out = append(out, id[k])
					}
				}
			}
			return out
		}
		tests := []struct {
			name, q, platform string
			want              []int64
		}{
			{"one word", "sunset", "", ids("bay", "blvd")},
			{"mixed case", "SuNsEt", "", ids("bay", "blvd")},
			{"all words must occur", "sunset bay", "", ids("bay")},
			{"word order is free", "BAY sunset", "", ids("bay")},
			{"one missing word fails", "sunset nothing", "", nil},
			{"substring inside a word", "unse", "", ids("bay", "blvd")},
			{"substrings of two words", "set boul", "", ids("blvd")},
			{"two letters", "ou", "", ids("blvd")},
			{"one letter", "y", "", ids("bay")},
			{"short and long terms", "sunset y", "", ids("bay")},
			{"Thai", "คลิปหลุด", "", ids("thai")},
			{"Thai substring", "หลุด", "", ids("thai")},
			{"CJK two characters", "東京", "", ids("tokyo")},
			{"CJK one character", "夜", "", ids("tokyo")},
			{"CJK three characters", "の夜景", "", ids("tokyo")},
			{"Japanese katakana", "ラーメン", "", ids("jp")},
			{"Japanese hiragana", "さん", "", ids("jp")},
			{"accent", "café", "", ids("cafe")},
			{"accent upper case", "CAFÉ", "", ids("cafe")},
			{"accent decomposed", "cafe\u0301", "", ids("cafe")},
			{"accent and word", "FLORE CAFÉ", "", ids("cafe")},
			{"Greek final sigma", "οδυσσεας", "", ids("greek")},
			{"Greek capitals with tonos", "ΝΗΣΊ", "", ids("greek")},
			{"percent is literal", "100%", "", ids("special")},
			{"lone percent", "%", "", ids("special")},
			{"double percent", "%%", "", nil},
			{"underscore is literal", "pure_fun", "", ids("special")},
			{"lone underscore", "_", "", ids("special")},
			{"double quotes are literal", `"quoted"`, "", ids("special")},
			{"lone double quote", `"`, "", ids("special")},
			{"apostrophe", "it's", "", ids("special")},
			{"lone apostrophe", "'", "", ids("special")},
			{"backslash", `a\b`, "", ids("special")},
			{"lone backslash", `\`, "", ids("special")},
			{"star is literal", "sun*", "", nil},
			{"FTS syntax is literal", "NEAR(sunset", "", nil},
			{"column syntax is literal", "title:sunset", "", nil},
			{"no match", "zzz", "", nil},
			{"with platform", "sunset", "JAV", ids("bay")},
			{"with other platform", "sunset", "ทวิต", ids("blvd")},
			{"with platform, no match", "sunset", "คลิปหลุด", nil},
			{"only spaces is no filter", "   ", "JAV", ids("bay")},
			{"Vietnamese without marks", "tieng viet", "", ids("viet")},
			{"Vietnamese in capitals", "TIẾNG NGƯỜI", "", ids("viet")},
			{"Vietnamese tones", "nguoi moi", "", ids("viet")},
			{"simplified finds traditional", "爱情", "", ids("zh")},
			{"traditional finds traditional", "愛情公寓", "", ids("zh")},
			{"full-width digit in the title", "第2季", "", ids("zh")},
			{"katakana finds hiragana", "カワイイ", "", ids("kana")},
			{"full-width code", "ＡＢＣ－１２３", "", ids("code")},
			{"code as typed", "abc-123", "", ids("code")},
			{"Polish ł", "lodz noca", "", ids("polish")},
			{"pinyin", "aiqinggong", "", ids("zh")},
			{"pinyin of several titles", "gong", "", ids("zh")},
			{"pinyin words", "xingqi san", "", ids("xqs")},
			{"pinyin initials", "xqs", "", ids("xqs")},
			{"pinyin initials across words", "aqgydj", "", ids("zh")},
			{"pinyin with a platform", "xqs", "JAV", nil},
			{"a plain match comes first", "aiqing", "", ids("road")},
			{"pinyin, then nothing", "xqsz", "", nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, total := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms(tt.q), Platform: tt.platform})
				wantIDs(t, fmt.Sprintf("q=%q platform=%q", tt.q, tt.platform), got, tt.want)
				if total != int64(len(tt.want)) {
					t.Fatalf("q=%q: got total %d, want %d", tt.q, total, len(tt.want))
				}
			})
		}
	})

	t.Run("PagingAndTotals", func(t *testing.T) {
		s := open(t)
		var matches []int64 // newest first
		for i := range 25 {
			matches = append([]int64{createClip(t, s, fmt.Sprintf("Match me %d", i), "JAV").ID}, matches...)
			if i%5 == 0 {
				createClip(t, s, "other", "JAV")
			}
		}
		tests := []struct {
			q, platform string
			paging      catalog.Paging
			want        []int64
			total       int64
		}{
			{"match", "", page(1, 10), matches[0:10], 25},
			{"match", "", page(3, 10), matches[20:25], 25},
			{"match", "", page(4, 10), nil, 25},
			{"MATCH ME", "JAV", page(2, 10), matches[10:20], 25},
			{"ma", "", page(3, 10), matches[20:25], 25},
			{"match", "ทวิต", page(1, 10), nil, 0},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%s/page%d", tt.q, tt.platform, tt.paging.Page), func(t *testing.T) {
				got, total := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms(tt.q), Platform: tt.platform, Paging: tt.paging})
				wantIDs(t, "clip list", got, tt.want)
				if total != tt.total {
					t.Fatalf("total: got %d, want %d", total, tt.total)
				}
			})
		}
	})

	t.Run("FollowsUpdatesAndDeletes", func(t *testing.T) {
		s := open(t)
		c := createClip(t, s, "Original Title", "JAV")
		_, err := s.UpdateClip(t.Context(), c.ID, func(c *catalog.Clip) error {
			c.Title = "Renamed Entry"
			return nil
		})
		noErr(t, err, "UpdateClip")
		for _, tt := range []struct {
			q    string
			want []int64
		}{{"original", nil}, {"renamed", []int64{c.ID}}, {"ti", nil}, {"re", []int64{c.ID}}} {
			got, _ := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms(tt.q)})
			wantIDs(t, "after rename, q="+tt.q, got, tt.want)
		}
		noErr(t, s.DeleteClip(t.Context(), c.ID), "DeleteClip")
		got, total := listClips(t, s, catalog.ClipFilter{Terms: catalog.SearchTerms("renamed")})
		wantIDs(t, "after delete", got, nil)
		if total != 0 {
			t.Fatalf("total after delete: got %d, want 0", total)
		}
	})
}
