package catalog

import (
	"math"
	"net/url"
	"strconv"
	"time"
)

// Paging limits shared by both services (contract 2).
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// MaxPageBytes bounds the encoded body of one list page (before gzip):
// a page whose movies grow past it while it is encoded is refused with
// PageTooLarge rather than built, so that no answer, and no buffer
// behind it, grows with the size of the movies' episodes. Fourteen
// movies of the largest size a movie may have (MaxEpisodesBytes of
// episodes plus full text fields) always fit, and so does the default
// page of any catalog whose movies average under 1.6 MiB.
const MaxPageBytes = 32 << 20

// PageTooLarge is the EINVALID error of a page past MaxPageBytes; param
// is the parameter that sets the page's size.
func PageTooLarge(param string) error {
	return Errorf(EINVALID, "%s: this page would be larger than %d MiB, the most one answer carries; "+
		"ask for fewer movies per page, or leave out episodes with fields", param, MaxPageBytes>>20)
}

// Paging is a validated page request.
type Paging struct {
	Page  int64
	Limit int64
}

// Offset is the number of records before this page. Pages far past any
// catalog (contract 2 allows any page: past the end is an empty list)
// saturate at MaxInt64 instead of overflowing.
func (p Paging) Offset() int64 {
	if p.Page-1 > math.MaxInt64/p.Limit {
		return math.MaxInt64
	}
	return (p.Page - 1) * p.Limit
}

// PageCount is ceil(total/limit), 0 when total is 0.
func (p Paging) PageCount(total int64) int64 {
	if total <= 0 {
		return 0
	}
	return (total + p.Limit - 1) / p.Limit
}

// ParsePaging reads page and limit from q. pageKeys are tried in order
// (the legacy movie API accepts "pg" after "page"). Absent values take
// the defaults; a present value that is not a positive decimal integer
// is an EINVALID error naming the parameter; a limit above MaxLimit is
// clamped.
func ParsePaging(q url.Values, pageKeys ...string) (Paging, error) {
	p := Paging{Page: 1, Limit: DefaultLimit}
	if len(pageKeys) == 0 {
		pageKeys = []string{"page"}
	}
	for _, key := range pageKeys {
		if vs, ok := q[key]; ok {
			n, err := ParseID(vs[0])
			if err != nil {
				return p, Errorf(EINVALID, "%s must be a positive integer no larger than %d", key, int64(math.MaxInt64))
			}
			p.Page = n
			break
		}
	}
	if vs, ok := q["limit"]; ok {
		n, ok := parsePositive(vs[0])
		if !ok {
			return p, Errorf(EINVALID, "limit must be a positive integer")
		}
		p.Limit = min(n, MaxLimit)
	}
	return p, nil
}

// parsePositive accepts only [0-9]+ with a value >= 1. A value too large
// for int64 is reported as MaxInt64 so that callers can clamp it.
func parsePositive(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil { // only overflow is left
		return 1<<63 - 1, true
	}
	return n, n >= 1
}

// ParseID parses a path id: a positive decimal integer that fits int64.
func ParseID(s string) (int64, error) {
	if _, ok := parsePositive(s); ok {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, Errorf(EINVALID, "id must be a positive integer that fits in 64 bits")
}

// Bounds of the parameters of /api/jav (contract 4.3) and the MacCMS
// resource API (contract 6).
const (
	// MaxIDs bounds the ids parameter.
	MaxIDs = 100
	// MaxHours bounds the h parameter: one year.
	MaxHours = 8760
)

// ParseHours reads h (hours back from now, 1 to MaxHours) into the
// earliest change time it admits.
func ParseHours(v string, now time.Time) (time.Time, error) {
	hours, err := ParseID(v)
	if err != nil || hours > MaxHours {
		return time.Time{}, Errorf(EINVALID, "h must be a whole number of hours from 1 to %d", MaxHours)
	}
	return now.Add(-time.Duration(hours) * time.Hour), nil
}

// AppendListHead appends the list envelope (contract 4.2) up to the
// opening of its list. limit is a string in /api/movies and /api/jav
// (quotedLimit), a number in the MacCMS resource API, as MacCMS sends
// it (contract 6).
func (p Paging) AppendListHead(b []byte, total int64, quotedLimit bool) []byte {
	b = append(b, `{"code":1,"msg":"data list","page":`...)
	b = strconv.AppendInt(b, p.Page, 10)
	b = append(b, `,"pagecount":`...)
	b = strconv.AppendInt(b, p.PageCount(total), 10)
	b = append(b, `,"limit":`...)
	if quotedLimit {
		b = append(b, '"')
	}
	b = strconv.AppendInt(b, p.Limit, 10)
	if quotedLimit {
		b = append(b, '"')
	}
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, total, 10)
	return append(b, `,"list":[`...)
}
