package html

import (
	"net/url"
	"strconv"
	"strings"

	"catalog/internal/catalog"
)

// Filter is a list search as the query string carries it (the same
// parameters as GET /api/clips and GET /api/movies), validated by the
// domain's rules.
type Filter struct {
	Q        string
	Terms    []string // Q's terms, checked by catalog.ParseSearch
	Platform string
	// Values are the value filters (contract 12) as typed, in field
	// order; Match is the same, folded, for the query.
	Values []FilterValue
	Match  []catalog.FieldValue
	Year   string // as typed; Years is its range
	Years  catalog.YearRange
	Sort   catalog.Sort
	// Facet names the field whose values the page lists with their
	// counts ("" for the records themselves).
	Facet  string
	Paging catalog.Paging
	// limitSet keeps an explicit limit in the links, so that a shared URL
	// shows the same pages.
	limitSet bool
}

// FilterValue is one value filter as typed: its parameter and value.
type FilterValue struct{ Param, Value string }

// ParseSearch reads q (held to catalog.ParseSearch's limits), page and limit. Bad values are EINVALID errors
// whose messages a visitor can act on.
func ParseSearch(q url.Values) (Filter, error) {
	paging, err := catalog.ParsePaging(q)
	if err != nil {
		return Filter{}, err
	}
	terms, err := catalog.ParseSearch("q", q.Get("q"))
	if err != nil {
		return Filter{}, err
	}
	return Filter{Q: q.Get("q"), Terms: terms, Paging: paging, limitSet: q.Has("limit")}, nil
}

// ClipValueFields are the value filters of clip lists (contract 12).
var ClipValueFields = []catalog.ValueField{catalog.ValueActor, catalog.ValueStudio}

// MovieValueFields are the value filters of movie lists (contract 12).
var MovieValueFields = []catalog.ValueField{catalog.ValueCategory, catalog.ValueActor, catalog.ValueDirector,
	catalog.ValueStudio, catalog.ValueGenre, catalog.ValueCountry}

// ParseFilter is ParseSearch plus the filters of clip lists: platform,
// actor and studio.
func ParseFilter(q url.Values, platforms *catalog.Platforms) (Filter, error) {
	f, err := ParseSearch(q)
	if err != nil {
		return Filter{}, err
	}
	if v := q.Get("platform"); v != "" {
		p, ok := platforms.Normalize(v)
		if !ok {
			return Filter{}, catalog.Errorf(catalog.EINVALID, "platform must be one of: %s", platforms.Allowed())
		}
		f.Platform = p
	}
	return f, f.parseValues(q, ClipValueFields)
}

// ParseMovieFilter is ParseSearch plus the filters and the order of
// movie lists: category, actor, director, studio, genre, country, year
// and sort.
func ParseMovieFilter(q url.Values) (Filter, error) {
	f, err := ParseSearch(q)
	if err != nil {
		return Filter{}, err
	}
	if err := f.parseValues(q, MovieValueFields); err != nil {
		return Filter{}, err
	}
	if v := strings.TrimSpace(q.Get("year")); v != "" {
		if f.Years, err = catalog.ParseYearRange(v); err != nil {
			return Filter{}, err
		}
		f.Year = v
	}
	if f.Sort, err = catalog.ParseSort(q.Get("sort")); err != nil {
		return Filter{}, err
	}
	return f, nil
}

// parseValues reads the value filters of fields, as the API does
// (catalog.ParseValueFilters), keeping them as typed for the page.
func (f *Filter) parseValues(q url.Values, fields []catalog.ValueField) error {
	match, err := catalog.ParseValueFilters(q, fields...)
	if err != nil {
		return err
	}
	f.Match = match
	for _, m := range match {
		f.Values = append(f.Values, FilterValue{Param: m.Field.String(), Value: strings.TrimSpace(q.Get(m.Field.String()))})
	}
	return nil
}

// Value is the typed value of the filter param, "" when unset.
func (f Filter) Value(param string) string {
	for _, v := range f.Values {
		if v.Param == param {
			return v.Value
		}
	}
	return ""
}

// Filtered reports whether anything narrows the list: words, platform,
// a value filter or a year.
func (f Filter) Filtered() bool {
	return f.Q != "" || f.Platform != "" || len(f.Values) > 0 || f.Year != ""
}

// With is f with the filter param set to value ("" removes it), on
// the records rather than a facet: the link from a facet's value, or
// a filter's removal.
func (f Filter) With(param, value string) Filter {
	out := f
	out.Facet = ""
	out.Values = nil
	for _, v := range f.Values {
		if v.Param != param {
			out.Values = append(out.Values, v)
		}
	}
	switch param {
	case "platform":
		out.Platform = value
	case "year":
		out.Year = value
	case "q":
		out.Q = value
	default:
		if value != "" {
			out.Values = append(out.Values, FilterValue{param, value})
		}
	}
	return out
}

// Facets is f listing the values of field with their counts.
func (f Filter) Facets(field string) Filter {
	f.Facet = field
	return f
}

// ClipFilter is the store query of f.
func (f Filter) ClipFilter() catalog.ClipFilter {
	return catalog.ClipFilter{Terms: f.Terms, Platform: f.Platform, Match: f.Match, Paging: f.Paging}
}

// MovieFilter is the store query of f.
func (f Filter) MovieFilter() catalog.MovieFilter {
	return catalog.MovieFilter{Terms: f.Terms, Match: f.Match, Years: f.Years, Sort: f.Sort, Paging: f.Paging}
}

// URL is base with f's parameters, on page; empty values are left out
// so that links stay short.
func (f Filter) URL(base string, page int64) string {
	v := url.Values{}
	if f.Facet != "" {
		v.Set("facet", f.Facet)
	}
	if f.Q != "" {
		v.Set("q", f.Q)
	}
	if f.Platform != "" {
		v.Set("platform", f.Platform)
	}
	for _, fv := range f.Values {
		v.Set(fv.Param, fv.Value)
	}
	if f.Year != "" {
		v.Set("year", f.Year)
	}
	if f.Sort != catalog.SortNew {
		v.Set("sort", f.Sort.String())
	}
	if page > 1 {
		v.Set("page", strconv.FormatInt(page, 10))
	}
	if f.limitSet {
		v.Set("limit", strconv.FormatInt(f.Paging.Limit, 10))
	}
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// Limit is the limit to carry in a search form, 0 when it is the default.
func (f Filter) Limit() int64 {
	if f.limitSet {
		return f.Paging.Limit
	}
	return 0
}

// Pager is the pagination of a list page.
type Pager struct {
	Page, PageCount int64
	Total           int64
	From, To        int64 // 1-based positions shown, 0 when none
	Prev, Next      string
	First           string // link back to page 1 when past the end
	Links           []PageLink
}

// PageLink is one numbered page link; Gap marks "…" between numbers.
type PageLink struct {
	Number  int64
	URL     string
	Current bool
	Gap     bool
}

// pagerWindow is how many page numbers are shown on each side of the
// current one.
const pagerWindow = 2

// NewPager builds the links of f's page of total records.
func NewPager(f Filter, base string, total int64, shown int) Pager {
	page := f.Paging.Page
	count := f.Paging.PageCount(total)
	pg := Pager{Page: page, PageCount: count, Total: total}
	if shown > 0 {
		pg.From = f.Paging.Offset() + 1
		pg.To = f.Paging.Offset() + int64(shown)
	}
	if page > 1 && page <= count {
		pg.Prev = f.URL(base, page-1)
	}
	if page < count {
		pg.Next = f.URL(base, page+1)
	}
	if page > count && count > 0 {
		pg.First = f.URL(base, 1)
	}
	if count <= 1 {
		return pg
	}
	// Only the first, the last and a window around the current page are
	// numbered, so a catalog of a million pages still gives a short list.
	numbers := []int64{1}
	for n := max(2, page-pagerWindow); n <= min(count-1, page+pagerWindow); n++ {
		numbers = append(numbers, n)
	}
	numbers = append(numbers, count)
	for i, n := range numbers {
		if i > 0 && n > numbers[i-1]+1 {
			pg.Links = append(pg.Links, PageLink{Gap: true})
		}
		pg.Links = append(pg.Links, PageLink{Number: n, URL: f.URL(base, n), Current: n == page})
	}
	return pg
}

// FacetRow is one value of a facet page (contract 12): the value, how
// many records of the list have it, and the list filtered on it.
type FacetRow struct {
	Value string
	Count int64
	URL   string
}

// FacetRows are the rows of a page of f.Facet's values, each linking
// to the list at base filtered on it under f's other filters.
func FacetRows(f Filter, base string, values []catalog.FacetValue) []FacetRow {
	rows := make([]FacetRow, len(values))
	for i, v := range values {
		rows[i] = FacetRow{Value: v.Value, Count: v.Count, URL: f.With(f.Facet, v.Value).URL(base, 1)}
	}
	return rows
}

// FilterChip is one filter in force, with the list without it.
type FilterChip struct {
	Param, Value string
	RemoveURL    string
}

// Chips are f's platform, value and year filters, each with the link
// that removes it.
func (f Filter) Chips(base string) []FilterChip {
	var out []FilterChip
	add := func(param, value string) {
		if value != "" {
			out = append(out, FilterChip{Param: param, Value: value, RemoveURL: f.With(param, "").URL(base, 1)})
		}
	}
	add("platform", f.Platform)
	for _, v := range f.Values {
		add(v.Param, v.Value)
	}
	add("year", f.Year)
	return out
}
