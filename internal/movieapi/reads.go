package movieapi

import (
	"context"
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
)

// movieOrder returns the id order of the whole list.
func (s *server) movieOrder() *cache.Order { return s.reads.Order("movies", s.reads.Keyset.MovieIDs) }

// pageOfMovies is ListMovies, with searches (and deep pages, when it is
// ready) answered by the index and deep unfiltered pages served by a
// seek when the id order is at version (the version read for this
// request).
func (s *server) pageOfMovies(ctx context.Context, version int64, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, error) {
	if page, total, ok, err := s.searchMovies(ctx, version, f, fields); ok || err != nil {
		return page, total, err
	}
	if s.reads.Keyset != nil && len(f.Terms) == 0 && len(f.IDs) == 0 && f.ChangedSince.IsZero() {
		page, total, ok, err := cache.SeekPage(ctx, s.movieOrder(), version, f.Paging.Offset(), func(from, skip int64) ([]catalog.Movie, error) {
			return s.reads.Keyset.MoviesFrom(ctx, from, skip, f.Paging.Limit, fields)
		})
		if ok {
			return page, total, err
		}
	}
	return s.store.ListMovies(ctx, f)
}

// cacheable reports whether a list's answer depends only on the query
// and the data: "h" counts back from the clock.
func (lq listQuery) cacheable() bool { return lq.filter.ChangedSince.IsZero() }

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
	return b.String()
}

func (dq detailQuery) key() string {
	prefix := "movie\x00"
	if dq.legacy {
		prefix = "jav\x00"
	}
	return prefix + strconv.FormatUint(uint64(dq.fields), 16) + "\x00" + strconv.FormatInt(dq.id, 10)
}
