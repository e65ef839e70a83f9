package catalog

import (
	"context"
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"time"
)

// The MacCMS v10 "provide" resource API (contract 6) serves movies as
// MacCMS records: with a type (the first category, numbered by the
// store) and in last-change order, the order incremental collectors
// page in.

// VodFilter selects one page of the resource API, last change first
// (UpdatedAt descending, then id descending): the in-process index
// (internal/search) answers it.
type VodFilter struct {
	Terms        []string  // folded search terms, all must occur in the name
	IDs          []int64   // when non-empty, only these ids
	TypeID       int64     // when non-zero, only movies of this type
	ChangedSince time.Time // when non-zero, only movies changed at or after
	Years        YearRange // when set, only movies whose year lies in it
	PlayKind     int64     // when non-zero, only movies with this PlayKinds bit (from=CODE)
	// Match is value filters (area: ValueCountry, class: ValueGenre),
	// folded (FoldValue): each must be one of the movie's values.
	Match []FieldValue
	// By is the order of by= other than time: SortScore or a hits sort
	// (contract 12), highest first, then id, highest first; the zero
	// value (by=time) is last change first.
	By        Sort
	Ascending bool // first change first (sort_direction=asc); only with by=time
	Paging    Paging
}

// YearRange is an inclusive range of four-digit years; the zero value
// is no filter.
type YearRange struct{ From, To string }

// IsZero reports whether the range filters nothing.
func (y YearRange) IsZero() bool { return y.From == "" }

// Span is the range as numbers.
func (y YearRange) Span() [2]int { return [2]int{atoiYear(y.From), atoiYear(y.To)} }

// Vod is a movie with its MacCMS type: the store's number for its first
// category (0 and "" when it has none).
type Vod struct {
	Movie
	TypeID   int64
	TypeName string
}

// VodType is one category name and its stable number.
type VodType struct {
	ID   int64
	Name string
}

// VodStore serves the resource API. Every write of a movie keeps the
// types: each category name gets a positive id when first seen, never
// reused.
type VodStore interface {
	// VodTypes returns every type, by id.
	VodTypes(ctx context.Context) ([]VodType, error)
}

// InOrder rearranges recs (records read by id, in any order) into the
// order of ids, leaving out the ids with no record.
func InOrder[T any](ids []int64, recs []T, id func(*T) int64) []T {
	at := make(map[int64]int, len(recs))
	for i := range recs {
		at[id(&recs[i])] = i
	}
	out := make([]T, 0, len(recs))
	for _, want := range ids {
		if i, ok := at[want]; ok {
			out = append(out, recs[i])
		}
	}
	return out
}

// ParseVodPaging reads pg (the page) and pagesize, or its alias limit,
// with the rules of contract 2 for page and limit. MacCMS collectors
// send every parameter even when they have no value (pg=&t=&h=), so an
// empty value is an absent one, and so is 0, as Provide.php reads it.
func ParseVodPaging(q url.Values) (Paging, error) {
	p := Paging{Page: 1, Limit: DefaultLimit}
	if v := VodParam(q, "pg"); v != "" {
		n, err := ParseID(v)
		if err != nil {
			return p, Errorf(EINVALID, "pg must be a positive integer no larger than %d", int64(math.MaxInt64))
		}
		p.Page = n
	}
	for _, key := range []string{"pagesize", "limit"} {
		if v := VodParam(q, key); v != "" {
			n, ok := parsePositive(v)
			if !ok {
				return p, Errorf(EINVALID, "%s must be a positive integer (at most %d is used)", key, MaxLimit)
			}
			p.Limit = min(n, MaxLimit)
			break
		}
	}
	return p, nil
}

// VodParam is a parameter of the resource API as MacCMS's Provide.php
// reads it: "" when absent, empty or 0.
func VodParam(q url.Values, key string) string {
	if v := q.Get(key); v != "0" {
		return v
	}
	return ""
}

// ParseYearRange reads the year parameter: YYYY or YYYY-YYYY. A
// reversed range is turned round, as MacCMS does.
func ParseYearRange(s string) (YearRange, error) {
	from, to, isRange := strings.Cut(s, "-")
	if !isRange {
		to = from
	}
	if len(from) != 4 || len(to) != 4 || !allDigits(from+to) {
		return YearRange{}, Errorf(EINVALID, "year must be YYYY or YYYY-YYYY, got %q", s)
	}
	if from > to {
		from, to = to, from
	}
	return YearRange{From: from, To: to}, nil
}

// atoiYear is the number of four digits.
func atoiYear(s string) int {
	return int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
}

// VodTimeLayout is how vod_time and <last> give the change time (UTC).
const VodTimeLayout = time.DateTime

// MaxBlurbRunes bounds vod_blurb, the synopsis cut short (MacCMS's own
// collector cuts its blurbs at 100 characters too).
const MaxBlurbRunes = 100

// Blurb is the synopsis cut to at most MaxBlurbRunes characters.
func Blurb(synopsis string) string {
	n := 0
	for i := range synopsis {
		if n == MaxBlurbRunes {
			return synopsis[:i]
		}
		n++
	}
	return synopsis
}

// Items returns the items of a stored list, read from its JSON form.
func (l List) Items() []string {
	if l.JSON == "" || l.JSON == "[]" {
		return nil
	}
	var items []string
	if err := json.Unmarshal([]byte(l.JSON), &items); err != nil {
		// The store wrote this form itself; fall back to the joined one.
		return strings.Split(l.Joined, ", ")
	}
	return items
}
