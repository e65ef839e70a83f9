package catalog

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"catalog/internal/fold"
)

// Browsing (contract 12): lists filter on exact values of a record's
// fields, count those values (facets), and sort in several orders. The
// in-process index (internal/search) answers all of it; these are the
// names the APIs, the console and the MacCMS layer share.

// ValueField names a field whose values lists filter and facet on: a
// movie's list fields, in their canonical order (a movie's list i is
// ValueField(i+1)), of which clips have actor and studio, each one
// value.
type ValueField uint8

const (
	ValueCategory ValueField = iota + 1
	ValueActor
	ValueDirector
	ValueStudio
	ValueGenre
	ValueCountry
)

// NumValueFields is the number of ValueFields.
const NumValueFields = 6

var valueFieldNames = [NumValueFields + 1]string{"", "category", "actor", "director", "studio", "genre", "country"}

// String is the field's query parameter name.
func (f ValueField) String() string {
	if f == 0 || f > NumValueFields {
		return ""
	}
	return valueFieldNames[f]
}

// ValueFieldNamed is the field whose query parameter is name.
func ValueFieldNamed(name string) (ValueField, bool) {
	for i, n := range valueFieldNames {
		if i > 0 && n == name {
			return ValueField(i), true
		}
	}
	return 0, false
}

// FieldValue is one value of a field: as stored in a SearchDoc (the
// index folds it), folded (FoldValue) in a filter.
type FieldValue struct {
	Field ValueField
	Value string
}

// FoldValue is v as filters and facets compare it: trimmed, then
// folded as search text is (contract 11).
func FoldValue(v string) string { return fold.String(strings.TrimSpace(v)) }

// MaxFilterValue is the longest filter value, in characters.
const MaxFilterValue = 256

// ParseFilterValue checks the value of the filter parameter param
// (contract 12) and returns it folded (FoldValue): at most
// MaxFilterValue characters, valid UTF-8 without control characters,
// else EINVALID naming param. "" (after trimming) is no filter.
func ParseFilterValue(param, v string) (string, error) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f {
			return "", Errorf(EINVALID, "%s must not contain control characters", param)
		}
	}
	if !utf8.ValidString(v) {
		return "", Errorf(EINVALID, "%s must be valid UTF-8", param)
	}
	if len(v) > MaxFilterValue && utf8.RuneCountInString(v) > MaxFilterValue {
		return "", Errorf(EINVALID, "%s must be at most %d characters", param, MaxFilterValue)
	}
	return FoldValue(v), nil
}

// ParseValueFilters reads the value filters of fields from q, each the
// parameter named as its field (ParseFilterValue), in fields' order;
// an empty one is no filter.
func ParseValueFilters(q url.Values, fields ...ValueField) ([]FieldValue, error) {
	var out []FieldValue
	for _, f := range fields {
		raw := q.Get(f.String())
		if raw == "" {
			continue // most lists name no filter: nothing to check or fold
		}
		v, err := ParseFilterValue(f.String(), raw)
		if err != nil {
			return nil, err
		}
		if v != "" {
			out = append(out, FieldValue{f, v})
		}
	}
	return out, nil
}

// Sort is the order of a list (contract 12): each descending but
// SortTitle, ties by id descending.
type Sort uint8

const (
	SortNew       Sort = iota // id (the default)
	SortUpdated               // last change
	SortYear                  // four-digit year; movies without one last
	SortScore                 // score; movies without one last
	SortHits                  // plays in all (catalog.Hits)
	SortHitsDay               // plays in the current UTC day
	SortHitsWeek              // plays in the current ISO week
	SortHitsMonth             // plays in the current month
	SortTitle                 // folded title, ascending
)

var sortNames = []string{"new", "updated", "year", "score", "hits", "hits_day", "hits_week", "hits_month", "title"}

// String is the sort's name in sort=.
func (s Sort) String() string {
	if int(s) < len(sortNames) {
		return sortNames[s]
	}
	return ""
}

// ParseSort reads sort= ("" is SortNew); another name is EINVALID.
func ParseSort(s string) (Sort, error) {
	if s == "" {
		return SortNew, nil
	}
	for i, n := range sortNames {
		if n == s {
			return Sort(i), nil
		}
	}
	return 0, Errorf(EINVALID, "sort must be one of %s", strings.Join(sortNames, ", "))
}

// ListItems calls fn with each item of a stored list's JSON form
// (List.JSON), in order, without allocating for items free of escapes.
func ListItems(json string, fn func(string)) {
	if len(json) < 4 || json[0] != '[' || json[len(json)-1] != ']' {
		return
	}
	if strings.IndexByte(json, '\\') >= 0 {
		for _, it := range (List{JSON: json}).Items() {
			fn(it)
		}
		return
	}
	// Without a backslash no item holds a quote: the items are what
	// lies between the quotes.
	body := json[2 : len(json)-2]
	for {
		i := strings.Index(body, `","`)
		if i < 0 {
			fn(body)
			return
		}
		fn(body[:i])
		body = body[i+3:]
	}
}

// FacetValue is one value of a facet (contract 12) and the number of
// records of the list that have it.
type FacetValue struct {
	Value string
	Count int64
}

// AppendFacetValues appends vs as the JSON records of a facet page,
// {"value": "...", "count": N}, comma-separated.
func AppendFacetValues(b []byte, vs []FacetValue) []byte {
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"value":`...)
		b = AppendJSONString(b, v.Value)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, v.Count, 10)
		b = append(b, '}')
	}
	return b
}
