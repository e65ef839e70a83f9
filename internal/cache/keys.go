package cache

import (
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// The keys of the cached answers: what every service's normalised query
// is made of.

// DayKey is the cache key of an answer that may carry hits: the counts
// of the day, week and month served depend on the UTC day (catalog.Hits.
// At) as well as on the data, so a new day needs new answers even when
// nothing was written.
func DayKey(key string, now time.Time) string {
	return key + "\x00d" + strconv.FormatInt(int64(catalog.HitDayOf(now)), 10)
}

// AppendTerms writes search terms into a cache key, length-prefixed: a
// term may contain any byte, and ["a b"] must not meet ["a", "b"].
func AppendTerms(b *strings.Builder, terms []string) {
	for _, t := range terms {
		b.WriteString("\x00t")
		b.WriteString(strconv.Itoa(len(t)))
		b.WriteByte(':')
		b.WriteString(t)
	}
}

// AppendMatch writes value filters (catalog.ParseValueFilters) into a cache
// key, each value length-prefixed as terms are.
func AppendMatch(b *strings.Builder, match []catalog.FieldValue) {
	for _, m := range match {
		b.WriteString("\x00v")
		b.WriteString(m.Field.String())
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(len(m.Value)))
		b.WriteByte(':')
		b.WriteString(m.Value)
	}
}
