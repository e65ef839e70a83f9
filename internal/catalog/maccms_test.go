package catalog_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestBlurb(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("ก", 100), strings.Repeat("ก", 100)},
		{strings.Repeat("ก", 101), strings.Repeat("ก", 100)},
		{strings.Repeat("a", 99) + "日本語", strings.Repeat("a", 99) + "日"},
	}
	for _, tt := range tests {
		if got := catalog.Blurb(tt.in); got != tt.want {
			t.Errorf("Blurb(%d runes): got %q, want %q", len([]rune(tt.in)), got, tt.want)
		}
	}
}

func TestParseYearRange(t *testing.T) {
	tests := []struct {
		in       string
		from, to string // "" = error
	}{
		{"2019", "2019", "2019"},
		{"1999-2005", "1999", "2005"},
		{"2005-1999", "1999", "2005"},
		{"0000-9999", "0000", "9999"},
		{"19", "", ""}, {"20190", "", ""}, {"2019-", "", ""}, {"-2019", "", ""}, {"abcd", "", ""},
		{"2019-20", "", ""}, {"2019-2020-2021", "", ""}, {"２０１９", "", ""}, {" 2019", "", ""},
	}
	for _, tt := range tests {
		got, err := catalog.ParseYearRange(tt.in)
		if tt.from == "" {
			if catalog.ErrorCode(err) != catalog.EINVALID || !strings.Contains(catalog.ErrorMessage(err), "year") {
				t.Errorf("ParseYearRange(%q): got %v, %v, want an invalid error naming year", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != (catalog.YearRange{From: tt.from, To: tt.to}) {
			t.Errorf("ParseYearRange(%q): got %v, %v, want %s-%s", tt.in, got, err, tt.from, tt.to)
		}
	}
}

func TestParseVodPaging(t *testing.T) {
	tests := []struct {
		query       string
		page, limit int64 // 0 = error
	}{
		{"", 1, 20},
		{"pg=&pagesize=&limit=", 1, 20},
		{"pg=3", 3, 20},
		{"pagesize=50", 1, 50},
		{"limit=50", 1, 50},
		{"pagesize=30&limit=50", 1, 30},
		{"pagesize=101", 1, 100},
		{"pagesize=99999999999999999999", 1, 100},
		// 0 counts as absent, as MacCMS's Provide.php reads it.
		{"pg=0", 1, 20}, {"pagesize=0", 1, 20}, {"pg=0&limit=0", 1, 20}, {"pagesize=0&limit=30", 1, 30},
		{"pg=x", 0, 0}, {"limit=-1", 0, 0}, {"pagesize=1.5", 0, 0},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		got, err := catalog.ParseVodPaging(q)
		if tt.page == 0 {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Errorf("%q: got %v, %v, want an invalid error", tt.query, got, err)
			}
			continue
		}
		if err != nil || got != (catalog.Paging{Page: tt.page, Limit: tt.limit}) {
			t.Errorf("%q: got %v, %v, want page %d limit %d", tt.query, got, err, tt.page, tt.limit)
		}
	}
}

func TestListItems(t *testing.T) {
	for _, items := range [][]string{nil, {"a"}, {"Action, Thriller", `Quote "q"`, "ไทย"}} {
		got := catalog.NewList(items).Items()
		if !slices.Equal(got, items) && !(len(got) == 0 && len(items) == 0) {
			t.Errorf("Items of %q: got %q", items, got)
		}
	}
}
