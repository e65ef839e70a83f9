package maccms

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/search"
)

// Browsing the resource API (contract 12 with 6): area (country), class
// (genre) and year filter every ac; lang is accepted and ignored (movies
// carry no language); by orders the page. f holds the same in FongMi
// TV's form: its app browses a type with ac=detail&t=T&pg=N&f=F, F the
// JSON object of the filters picked from the filters of ac=list (every
// value a string, "" for none picked), and leaves f out when none is.

// vodOrders are by='s values (MacCMS's names, contract 12).
var vodOrders = []string{"time", "hits", "hits_day", "hits_week", "hits_month", "score"}

// browseKeys are the parameters f may carry; f's other members are
// ignored, as unknown parameters are (contract 2). lang is read and
// ignored.
var browseKeys = []string{"area", "lang", "class", "year", "by"}

// parseBrowse reads area, class, year and by into vq: each the query's
// parameter, else f's member of that name (the plain parameter wins).
// An empty value is no filter, as MacCMS reads an empty parameter and
// as FongMi sends a filter of which the "all" value is picked.
func parseBrowse(q url.Values, vq *vodQuery) error {
	f, err := parseF(q.Get("f"))
	if err != nil {
		return err
	}
	for _, key := range browseKeys {
		v, inF := q.Get(key), false
		if v == "" {
			v, inF = f[key], true
		}
		if v == "" {
			continue
		}
		if err := vq.setBrowse(key, v); err != nil {
			if inF {
				return catalog.Errorf(catalog.EINVALID, "f: %s", catalog.ErrorMessage(err))
			}
			return err
		}
	}
	return nil
}

// setBrowse sets the filter or order key to v.
func (vq *vodQuery) setBrowse(key, v string) (err error) {
	switch key {
	case "area", "class":
		field := catalog.ValueCountry
		if key == "class" {
			field = catalog.ValueGenre
		}
		var folded string
		if folded, err = catalog.ParseFilterValue(key, v); err == nil && folded != "" {
			vq.filter.Match = append(vq.filter.Match, catalog.FieldValue{Field: field, Value: folded})
		}
	case "year":
		vq.filter.Years, err = catalog.ParseYearRange(v)
	case "by":
		vq.filter.By, err = parseBy(v)
	}
	return err
}

// parseF reads f, a JSON object (FongMi TV's filters). A member's value
// is a string, or a number read as its text; null is absent. Anything
// else is EINVALID naming f.
func parseF(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &members); err != nil || members == nil {
		return nil, catalog.Errorf(catalog.EINVALID, `f must be a JSON object of filters, such as {"class":"Drama","year":"2024"}`)
	}
	out := make(map[string]string, len(browseKeys))
	for _, key := range browseKeys {
		raw, ok := members[key]
		if !ok {
			continue
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, err // raw is one valid JSON value: not reached
		}
		switch v := v.(type) {
		case string:
			out[key] = v
		case json.Number:
			out[key] = v.String()
		case nil:
		default:
			return nil, catalog.Errorf(catalog.EINVALID, "f: %s must be a string", key)
		}
	}
	return out, nil
}

// parseBy reads by=, one of vodOrders: time (catalog.SortNew, the zero
// VodFilter.By) or the sort of that name.
func parseBy(v string) (catalog.Sort, error) {
	if v == "time" {
		return catalog.SortNew, nil
	}
	if slices.Contains(vodOrders, v) {
		return catalog.ParseSort(v)
	}
	return 0, catalog.Errorf(catalog.EINVALID, "by must be one of %s, got %q", strings.Join(vodOrders, ", "), v)
}

// The filters ac=list offers per type (contract 12), in the shape FongMi
// TV reads (its Filter: key, name and value, a list of n, the name
// shown, and v, the value sent back in f).

// vodFilterKeys are the filters of a type, in the order they are shown:
// the key f sends, its name, the index's facet field.
var vodFilterKeys = []struct{ key, name, field string }{
	{"class", "Genre", catalog.ValueGenre.String()},
	{"area", "Area", catalog.ValueCountry.String()},
	{"year", "Year", search.FacetYear},
}

// maxFilterValues is the most values a filter offers.
const maxFilterValues = 30

// typeFilters are the filters of one type that have values.
type typeFilters struct {
	typeID int64
	keys   []keyValues
}

// keyValues is one filter: its values as stored, most used by the
// type's movies first, then by value.
type keyValues struct {
	key, name string
	values    []string
}

// filters are the filters of every type with values, by type id.
func (a *API) filters(ctx context.Context, version int64, types []catalog.VodType) ([]typeFilters, error) {
	var out []typeFilters
	for _, t := range types {
		tf := typeFilters{typeID: t.ID}
		for _, k := range vodFilterKeys {
			p, err := a.index.Facet(ctx, version, k.field, search.Query{Type: t.ID, Limit: maxFilterValues})
			if err != nil {
				return nil, err
			}
			if len(p.Values) == 0 {
				continue
			}
			kv := keyValues{key: k.key, name: k.name, values: make([]string, len(p.Values))}
			for i, v := range p.Values {
				kv.values[i] = v.Value
			}
			tf.keys = append(tf.keys, kv)
		}
		if len(tf.keys) > 0 {
			out = append(out, tf)
		}
	}
	return out, nil
}

// appendFilters appends the filters member of ac=list.
func appendFilters(b []byte, filters []typeFilters) []byte {
	b = append(b, `,"filters":{`...)
	for i, tf := range filters {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, tf.typeID, 10)
		b = append(b, `":[`...)
		for j, k := range tf.keys {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = catalog.AppendJSONString(b, k.key)
			b = append(b, `,"name":`...)
			b = catalog.AppendJSONString(b, k.name)
			b = append(b, `,"value":[`...)
			for n, v := range k.values {
				if n > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"n":`...)
				b = catalog.AppendJSONString(b, v)
				b = append(b, `,"v":`...)
				b = catalog.AppendJSONString(b, v)
				b = append(b, '}')
			}
			b = append(b, "]}"...)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
