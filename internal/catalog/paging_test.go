package catalog_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestParsePaging(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		keys     []string
		want     catalog.Paging
		errNames string // the parameter the error must name; "" = no error
	}{
		{"defaults", "", nil, catalog.Paging{Page: 1, Limit: 20}, ""},
		{"unknown parameters ignored", "foo=bar&sort=x", nil, catalog.Paging{Page: 1, Limit: 20}, ""},
		{"explicit", "page=3&limit=50", nil, catalog.Paging{Page: 3, Limit: 50}, ""},
		{"leading zero", "page=007", nil, catalog.Paging{Page: 7, Limit: 20}, ""},
		{"limit 100", "limit=100", nil, catalog.Paging{Page: 1, Limit: 100}, ""},
		{"limit 101 clamped", "limit=101", nil, catalog.Paging{Page: 1, Limit: 100}, ""},
		{"limit beyond int64 clamped", "limit=99999999999999999999", nil, catalog.Paging{Page: 1, Limit: 100}, ""},
		{"limit 1", "limit=1", nil, catalog.Paging{Page: 1, Limit: 1}, ""},
		{"page past any data is still valid", "page=1000000", nil, catalog.Paging{Page: 1000000, Limit: 20}, ""},
		{"first value wins", "page=2&page=abc", nil, catalog.Paging{Page: 2, Limit: 20}, ""},

		{"page abc", "page=abc", nil, catalog.Paging{}, "page"},
		{"page 0", "page=0", nil, catalog.Paging{}, "page"},
		{"page 00", "page=00", nil, catalog.Paging{}, "page"},
		{"page -1", "page=-1", nil, catalog.Paging{}, "page"},
		{"page 1.5", "page=1.5", nil, catalog.Paging{}, "page"},
		{"page empty", "page=", nil, catalog.Paging{}, "page"},
		{"page without value", "page", nil, catalog.Paging{}, "page"},
		{"page +1", "page=%2B1", nil, catalog.Paging{}, "page"},
		{"page leading space", "page=%201", nil, catalog.Paging{}, "page"},
		{"page trailing space", "page=1%20", nil, catalog.Paging{}, "page"},
		{"page hex", "page=0x10", nil, catalog.Paging{}, "page"},
		{"page exponent", "page=1e3", nil, catalog.Paging{}, "page"},
		{"page arabic-indic digit", "page=%D9%A1", nil, catalog.Paging{}, "page"},
		// Contract 2: any page past the end is a 200 with an empty list,
		// so every page that fits int64 is valid; beyond it, a 400.
		{"page huge", "page=99999999999999999999", nil, catalog.Paging{}, "page"},
		{"page max int64", "page=9223372036854775807", nil, catalog.Paging{Page: 9223372036854775807, Limit: 20}, ""},
		{"page past 2^40", "page=1099511627777", nil, catalog.Paging{Page: 1099511627777, Limit: 20}, ""},
		{"limit abc", "limit=abc", nil, catalog.Paging{}, "limit"},
		{"limit 0", "limit=0", nil, catalog.Paging{}, "limit"},
		{"limit -1", "limit=-1", nil, catalog.Paging{}, "limit"},
		{"limit 1.5", "limit=1.5", nil, catalog.Paging{}, "limit"},
		{"limit empty", "limit=", nil, catalog.Paging{}, "limit"},
		{"limit +1", "limit=%2B1", nil, catalog.Paging{}, "limit"},
		{"limit leading space", "limit=%201", nil, catalog.Paging{}, "limit"},
		{"good page bad limit", "page=2&limit=x", nil, catalog.Paging{}, "limit"},

		// The legacy movie API tries page, then pg.
		{"pg alias", "pg=4", []string{"page", "pg"}, catalog.Paging{Page: 4, Limit: 20}, ""},
		{"page before pg", "page=2&pg=4", []string{"page", "pg"}, catalog.Paging{Page: 2, Limit: 20}, ""},
		{"bad page before good pg", "page=x&pg=4", []string{"page", "pg"}, catalog.Paging{}, "page"},
		{"good page ignores bad pg", "page=2&pg=x", []string{"page", "pg"}, catalog.Paging{Page: 2, Limit: 20}, ""},
		{"bad pg", "pg=0", []string{"page", "pg"}, catalog.Paging{}, "pg"},
		{"pg ignored without the alias", "pg=4", nil, catalog.Paging{Page: 1, Limit: 20}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := catalog.ParsePaging(q, tt.keys...)
			if tt.errNames != "" {
				if err == nil {
					t.Fatalf("ParsePaging(%q) = %+v, want an error naming %q", tt.query, got, tt.errNames)
				}
				if code := catalog.ErrorCode(err); code != catalog.EINVALID {
					t.Errorf("code = %q, want %q", code, catalog.EINVALID)
				}
				if msg := catalog.ErrorMessage(err); !strings.HasPrefix(msg, tt.errNames+" ") {
					t.Errorf("message = %q, want it to name %q", msg, tt.errNames)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePaging(%q): %v", tt.query, err)
			}
			if got != tt.want {
				t.Errorf("ParsePaging(%q) = %+v, want %+v", tt.query, got, tt.want)
			}
		})
	}
}

func TestPagingOffset(t *testing.T) {
	tests := []struct {
		p    catalog.Paging
		want int64
	}{
		{catalog.Paging{Page: 1, Limit: 20}, 0},
		{catalog.Paging{Page: 2, Limit: 20}, 20},
		{catalog.Paging{Page: 5, Limit: 100}, 400},
	}
	for _, tt := range tests {
		if got := tt.p.Offset(); got != tt.want {
			t.Errorf("%+v.Offset() = %d, want %d", tt.p, got, tt.want)
		}
	}
}

// The largest page ParsePaging accepts must not overflow the offset.
func TestPagingOffsetNoOverflow(t *testing.T) {
	page := int64(1)
	for {
		q := url.Values{"page": {strconv.FormatInt(page*2, 10)}, "limit": {"100"}}
		if _, err := catalog.ParsePaging(q); err != nil {
			break
		}
		page *= 2
	}
	p, err := catalog.ParsePaging(url.Values{"page": {strconv.FormatInt(page, 10)}, "limit": {"100"}})
	if err != nil {
		t.Fatal(err)
	}
	if off := p.Offset(); off <= 0 {
		t.Errorf("largest accepted page %d gives offset %d", page, off)
	}
}

func TestPageCount(t *testing.T) {
	tests := []struct {
		total, limit, want int64
	}{
		{0, 20, 0},
		{1, 20, 1},
		{19, 20, 1},
		{20, 20, 1},
		{21, 20, 2},
		{1234, 20, 62},
		{100, 100, 1},
		{101, 100, 2},
		{5, 1, 5},
	}
	for _, tt := range tests {
		p := catalog.Paging{Page: 1, Limit: tt.limit}
		if got := p.PageCount(tt.total); got != tt.want {
			t.Errorf("PageCount(total %d, limit %d) = %d, want %d", tt.total, tt.limit, got, tt.want)
		}
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true},
		{"17", 17, true},
		{"0017", 17, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"9223372036854775808", 0, false},
		{"99999999999999999999999", 0, false},
		{"0", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"abc", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{"", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"0x1", 0, false},
		{"١", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := catalog.ParseID(tt.in)
			if !tt.ok {
				if err == nil {
					t.Fatalf("ParseID(%q) = %d, want an error", tt.in, got)
				}
				if code := catalog.ErrorCode(err); code != catalog.EINVALID {
					t.Errorf("code = %q, want %q", code, catalog.EINVALID)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseID(%q) = %d, %v, want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

// Offsets of pages far past any catalog saturate instead of overflowing
// into negative numbers.
func TestOffset(t *testing.T) {
	tests := []struct {
		p    catalog.Paging
		want int64
	}{
		{catalog.Paging{Page: 1, Limit: 20}, 0},
		{catalog.Paging{Page: 3, Limit: 20}, 40},
		{catalog.Paging{Page: 1 << 40, Limit: 100}, (1<<40 - 1) * 100},
		{catalog.Paging{Page: 9223372036854775807, Limit: 20}, 9223372036854775807},
		{catalog.Paging{Page: 9223372036854775807 / 100, Limit: 100}, (9223372036854775807/100 - 1) * 100},
	}
	for _, tt := range tests {
		if got := tt.p.Offset(); got != tt.want {
			t.Errorf("%+v.Offset() = %d, want %d", tt.p, got, tt.want)
		}
	}
}
