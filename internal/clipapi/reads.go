package clipapi

import (
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
)

// listKey is the normalised form of a list request: two URLs that parse
// to the same filter share one cache entry.
func listKey(f catalog.ClipFilter) string {
	var b strings.Builder
	b.Grow(32 + len(f.Platform) + 16*len(f.Terms))
	b.WriteString("list\x00")
	b.WriteString(strconv.FormatInt(f.Paging.Page, 10))
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(f.Paging.Limit, 10))
	b.WriteByte(0)
	b.WriteString(f.Platform)
	cache.AppendTerms(&b, f.Terms)
	cache.AppendMatch(&b, f.Match)
	return b.String()
}

func detailKey(id int64) string { return "clip\x00" + strconv.FormatInt(id, 10) }
