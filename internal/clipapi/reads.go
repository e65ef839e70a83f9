package clipapi

import (
	"context"
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
)

// order returns the id order of one platform's list ("" = all).
func (s *server) order(platform string) *cache.Order {
	return s.reads.Order(platform, func(ctx context.Context, fn func(int64)) (int64, error) {
		return s.reads.Keyset.ClipIDs(ctx, platform, fn)
	})
}

// pageOfClips is ListClips, with searches (and deep pages, when it is
// ready) answered by the index and deep unfiltered pages served by a seek
// when the id order is at version (the version read for this request).
func (s *server) pageOfClips(ctx context.Context, version int64, f catalog.ClipFilter) ([]catalog.Clip, int64, error) {
	if page, total, ok, err := s.searchClips(ctx, version, f); ok || err != nil {
		return page, total, err
	}
	if s.reads.Keyset != nil && len(f.Terms) == 0 {
		// Even a first page prepares the order, so that the first deep
		// page finds it built.
		page, total, ok, err := cache.SeekPage(ctx, s.order(f.Platform), version, f.Paging.Offset(), func(from, skip int64) ([]catalog.Clip, error) {
			return s.reads.Keyset.ClipsFrom(ctx, f.Platform, from, skip, f.Paging.Limit)
		})
		if ok {
			return page, total, err
		}
	}
	return s.store.ListClips(ctx, f)
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
