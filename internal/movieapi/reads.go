package movieapi

import (
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
)

// key is the normalised form of a list request: two URLs that parse to
// the same query share one cache entry.
func (lq listQuery) key() string {
	var b strings.Builder
	b.Grow(48 + 16*len(lq.filter.Terms) + 8*len(lq.filter.IDs))
	if lq.legacy {
		b.WriteString("jav\x00")
	} else {
		b.WriteString("movies\x00")
	}
	b.WriteString(strconv.FormatUint(uint64(lq.fields), 16))
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(lq.filter.Paging.Page, 10))
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(lq.filter.Paging.Limit, 10))
	cache.AppendTerms(&b, lq.filter.Terms)
	for _, id := range lq.filter.IDs {
		b.WriteString("\x00i")
		b.WriteString(strconv.FormatInt(id, 10))
	}
	appendBrowseKey(&b, lq.filter.Match, lq.filter.Years)
	b.WriteString("\x00s")
	b.WriteString(lq.filter.Sort.String())
	return b.String()
}

// appendBrowseKey appends the value filters and the years to a cache
// key.
func appendBrowseKey(b *strings.Builder, match []catalog.FieldValue, years catalog.YearRange) {
	cache.AppendMatch(b, match)
	if !years.IsZero() {
		b.WriteString("\x00y")
		b.WriteString(years.From)
		b.WriteByte('-')
		b.WriteString(years.To)
	}
}

func (dq detailQuery) key() string {
	prefix := "movie\x00"
	if dq.legacy {
		prefix = "jav\x00"
	}
	return prefix + strconv.FormatUint(uint64(dq.fields), 16) + "\x00" + strconv.FormatInt(dq.id, 10)
}
