package movieapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// FuzzParseListQuery feeds whole query strings to the list parser of
// /api/movies and /api/jav (fields, page/pg, limit, q/wd, ids, h). Bad
// values must come back as a 400 (EINVALID), never another error, and
// accepted ones stay within contract 4.3's limits, written out here.
func FuzzParseListQuery(f *testing.F) {
	for _, s := range []string{
		"", "ids=1,2,3", "ids=1,,2", "ids=%201%20,2", "ids=-1", "ids=+1", "ids=0", "ids=9223372036854775808",
		"ids=" + strings.Repeat("1,", 99) + "1", "ids=" + strings.Repeat("7,", 100) + "7",
		"h=1", "h=8760", "h=8761", "h=0", "h=-5", "h=1e3", "h=", "h=99999999999999999999",
		"wd=abc&q=def", "wd=abc%00def", "q=%ff%fe", "pg=2&page=3", "pg=-1", "limit=1000000&fields=id,name",
		"fields=URL_player", "fields=%00", "ids=1&ids=2&h=3&h=4",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw string, legacy bool) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return // net/http leaves such pairs out; ParseQuery keeps the rest
		}
		lq, err := parseListQuery(q, legacy, now)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Fatalf("%q: got error code %q, want %q", raw, catalog.ErrorCode(err), catalog.EINVALID)
			}
			return
		}
		p := lq.filter.Paging
		if p.Page < 1 || p.Limit < 1 || p.Limit > 100 {
			t.Fatalf("%q: accepted page %d, limit %d", raw, p.Page, p.Limit)
		}
		if lq.fields == 0 || lq.fields&^catalog.AllFields(legacy) != 0 {
			t.Fatalf("%q: fields %b", raw, lq.fields)
		}
		if !legacy && (lq.filter.IDs != nil || !lq.filter.ChangedSince.IsZero()) {
			t.Fatalf("%q: /api/movies took ids or h", raw)
		}
		if len(lq.filter.IDs) > 100 {
			t.Fatalf("%q: accepted %d ids, want at most 100", raw, len(lq.filter.IDs))
		}
		for i, id := range lq.filter.IDs {
			if id < 1 || slices.Contains(lq.filter.IDs[:i], id) {
				t.Fatalf("%q: ids %v", raw, lq.filter.IDs)
			}
		}
		if since := lq.filter.ChangedSince; !since.IsZero() {
			if age := now.Sub(since); age < time.Hour || age > 8760*time.Hour || age%time.Hour != 0 {
				t.Fatalf("%q: h accepted as %v", raw, age)
			}
		}
	})
}

// FuzzParseIDs checks the ids parameter on its own: accepted lists are
// at most 100 distinct positive ids and read back from their own
// spelling.
func FuzzParseIDs(f *testing.F) {
	for _, s := range []string{"", " ", "1", "1,2,2", " 3 , 4 ", "1,", ",1", "1;2", "0", "-1", "+1", "1.0", "\x001",
		"\xff", "１", "9223372036854775807", "9223372036854775808", strings.Repeat("5,", 99) + "6",
		strings.Repeat("5,", 100) + "6", strings.Repeat(",", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := parseIDs(s)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID || !strings.HasPrefix(catalog.ErrorMessage(err), "ids ") {
				t.Fatalf("%q: got error %v", s, err)
			}
			return
		}
		if strings.TrimSpace(s) == "" {
			if ids != nil {
				t.Fatalf("%q: got %v, want no filter", s, ids)
			}
			return
		}
		if len(ids) == 0 || len(ids) > 100 {
			t.Fatalf("%q: got %d ids", s, len(ids))
		}
		parts := make([]string, len(ids))
		for i, id := range ids {
			if id < 1 || slices.Contains(ids[:i], id) {
				t.Fatalf("%q: got %v", s, ids)
			}
			parts[i] = strconv.FormatInt(id, 10)
		}
		again, err := parseIDs(strings.Join(parts, ","))
		if err != nil || !slices.Equal(again, ids) {
			t.Fatalf("%q: %v does not round-trip: %v, %v", s, ids, again, err)
		}
	})
}
