package clipapi

import (
	"context"
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/search"
)

// pageOfClips is the one read path of a clip list: the in-process index
// gives the page's ids and the exact total (of a search, a platform or
// the whole list, at any depth), then one keyed read fetches the rows.
func (s *server) pageOfClips(ctx context.Context, version int64, f catalog.ClipFilter) ([]catalog.Clip, int64, error) {
	var group *string
	if f.Platform != "" {
		group = &f.Platform
	}
	return search.Page(ctx, s.search, version, f.Terms, group, f.Paging.Offset(), f.Paging.Limit,
		func(ids []int64) ([]catalog.Clip, error) { return s.store.ClipsByID(ctx, ids) },
		func(c *catalog.Clip) (int64, string, string) { return c.ID, c.Title, c.Platform })
}

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
	return b.String()
}

func detailKey(id int64) string { return "clip\x00" + strconv.FormatInt(id, 10) }
