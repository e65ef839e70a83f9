package maccms

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// Browsing the resource API (contract 12 with 6): area (country), class
// (genre) and year filter every ac; lang is accepted and ignored (movies
// carry no language); by orders the page. f holds the same in FongMi
// TV's form: its app browses a type with ac=detail&t=T&pg=N&f=F, F the
// JSON object of the filters picked from the filters of ac=list (every
// value a string, "" for none picked), and leaves f out when none is.

// vodOrder is the order by= asks for.
type vodOrder uint8

const (
	byTime vodOrder = iota // last change first (contract 6), the default
	byHits
	byHitsDay
	byHitsWeek
	byHitsMonth
	byScore
)

// vodOrders are by='s values, in vodOrder's order.
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
	case "area":
		vq.area, err = filterValue(key, v)
	case "class":
		vq.class, err = filterValue(key, v)
	case "year":
		vq.filter.Years, err = catalog.ParseYearRange(v)
	case "by":
		vq.by, err = parseBy(v)
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

// parseBy reads by=, one of vodOrders.
func parseBy(v string) (vodOrder, error) {
	for i, name := range vodOrders {
		if v == name {
			return vodOrder(i), nil
		}
	}
	return 0, catalog.Errorf(catalog.EINVALID, "by must be one of %s, got %q", strings.Join(vodOrders, ", "), v)
}

// maxFilterValue is the longest value of a filter, in characters
// (contract 12).
const maxFilterValue = 256

// filterValue checks the value of the filter param: valid UTF-8, no
// control character, at most maxFilterValue characters; it returns it
// trimmed.
func filterValue(param, v string) (string, error) {
	if !utf8.ValidString(v) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", catalog.Errorf(catalog.EINVALID, "%s must be text without control characters", param)
	}
	if utf8.RuneCountInString(v) > maxFilterValue {
		return "", catalog.Errorf(catalog.EINVALID, "%s must be at most %d characters", param, maxFilterValue)
	}
	return strings.TrimSpace(v), nil
}
