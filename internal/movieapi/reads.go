package movieapi

import (
	"context"
	"strconv"
	"strings"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/search"
)

// pageOfMovies is the one read path of a movie list: the in-process
// index gives the page's ids and the exact total, then one keyed read
// fetches exactly the columns fields needs (moviesByID). Two filters of
// the legacy form are not the index's: ids names the records itself,
// and h (ChangedSince) selects by the time of the last change, which
// only the database keeps.
func (s *server) pageOfMovies(ctx context.Context, version int64, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, error) {
	switch {
	case !f.ChangedSince.IsZero():
		return s.store.ListMovies(ctx, f)
	case len(f.IDs) > 0:
		return s.namedMovies(ctx, f, fields)
	}
	return search.Page(ctx, s.search, version, f.Terms, nil, f.Paging.Offset(), f.Paging.Limit,
		func(ids []int64) ([]catalog.Movie, error) { return s.moviesByID(ctx, ids, f.Terms, fields) },
		func(m *catalog.Movie) (int64, string, string) { return m.ID, m.Name, "" })
}

// moviesByID reads ids by key with the columns of fields, and the name
// when terms must be checked against it.
func (s *server) moviesByID(ctx context.Context, ids []int64, terms []string, fields catalog.FieldSet) ([]catalog.Movie, error) {
	if len(terms) > 0 {
		fields |= 1 << catalog.FieldTitle
	}
	return s.store.MoviesByID(ctx, ids, fields)
}

// namedMovies answers ids=... (at most maxIDs): the named movies that
// exist and match the terms, newest first, paged here.
func (s *server) namedMovies(ctx context.Context, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, error) {
	all, err := s.moviesByID(ctx, f.IDs, f.Terms, fields)
	if err != nil {
		return nil, 0, err
	}
	found := all[:0]
	for _, m := range all {
		if catalog.TitleMatches(m.Name, f.Terms) {
			found = append(found, m)
		}
	}
	total := int64(len(found))
	from := min(f.Paging.Offset(), total)
	return found[from:min(from+f.Paging.Limit, total)], total, nil
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
