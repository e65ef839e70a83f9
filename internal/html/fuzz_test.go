package html_test

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/html"
)

// FuzzParseFilter feeds query strings to the HTML pages' search and
// paging parser. Bad values are 400s (EINVALID); an accepted filter
// survives the round trip through the links the pages print, and the
// pager built on it only links to pages that exist.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		"", "q=sunset&platform=JAV&page=2&limit=5", "q=%00", "q=%ff%fe", "q=+++", "page=-1", "page=0", "limit=101",
		"page=9223372036854775807", "page=9223372036854775808", "limit=99999999999999999999", "platform=jav",
		"platform=%E0%B8%97%E0%B8%A7%E0%B8%B4%E0%B8%95", "q=a&q=b&page=1&page=x", "q=" + strings.Repeat("word+", 200),
	} {
		f.Add(s, int64(1234))
		f.Add(s, int64(0))
	}
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string, total int64) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		filter, err := html.ParseFilter(q, platforms)
		if err != nil {
			if catalog.ErrorCode(err) != catalog.EINVALID {
				t.Fatalf("%q: got error code %q, want %q", raw, catalog.ErrorCode(err), catalog.EINVALID)
			}
			return
		}
		p := filter.Paging
		if p.Page < 1 || p.Limit < 1 || p.Limit > 100 {
			t.Fatalf("%q: accepted page %d, limit %d", raw, p.Page, p.Limit)
		}
		again := parseLink(t, filter.URL("/", p.Page), platforms)
		if !reflect.DeepEqual(again, filter) {
			t.Fatalf("%q: %+v comes back from its link as %+v", raw, filter, again)
		}

		total = max(0, total%1_000_000_000_000)
		shown := int64(0)
		if off := p.Offset(); off < total {
			shown = min(p.Limit, total-off)
		}
		pg := html.NewPager(filter, "/", total, int(shown))
		last := int64(0)
		for _, l := range pg.Links {
			if l.Gap {
				continue
			}
			if l.Number <= last || l.Number > pg.PageCount {
				t.Fatalf("%q, total %d: link to page %d after %d of %d", raw, total, l.Number, last, pg.PageCount)
			}
			last = l.Number
			if got := parseLink(t, l.URL, platforms).Paging.Page; got != l.Number {
				t.Fatalf("%q: link %q leads to page %d, want %d", raw, l.URL, got, l.Number)
			}
		}
		if len(pg.Links) > 9 {
			t.Fatalf("%q, total %d: %d page links", raw, total, len(pg.Links))
		}
		for want, link := range map[int64]string{p.Page - 1: pg.Prev, p.Page + 1: pg.Next, 1: pg.First} {
			if link != "" && parseLink(t, link, platforms).Paging.Page != want {
				t.Fatalf("%q: link %q does not lead to page %d", raw, link, want)
			}
		}
	})
}

// parseLink parses the filter of a link the pages print.
func parseLink(t *testing.T, link string, platforms *catalog.Platforms) html.Filter {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	f, err := html.ParseFilter(u.Query(), platforms)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	return f
}
