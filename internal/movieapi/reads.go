package movieapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// reads holds what makes the reads cheap: the response cache (checked
// against the data version on every request) and the id order that
// turns deep pages into seeks.
type reads struct {
	*cache.Reads
	keyset catalog.KeysetStore // nil when the store offers none

	orderOnce sync.Once
	order     *cache.Order

	vodOrderOnce sync.Once
	vodOrder     *cache.Order // change order of the MacCMS API (contract 6)
}

func newReads(store catalog.Store) *reads {
	r := &reads{Reads: cache.NewReads(movieVersion(store), 0)}
	r.keyset, _ = store.(catalog.KeysetStore)
	return r
}

// movieOrder returns the id order of the whole list, created (and its
// first build started) on first use.
func (s *server) movieOrder() *cache.Order {
	s.reads.orderOnce.Do(func() {
		s.reads.order = cache.NewOrder(s.reads.keyset.MovieIDs, s.log)
		s.reads.order.Refresh()
	})
	return s.reads.order
}

// pageOfMovies is ListMovies, with searches (and deep pages, when it is
// ready) answered by the index and deep unfiltered pages served by a
// seek when the id order is at version (the version read for this
// request).
func (s *server) pageOfMovies(ctx context.Context, version int64, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, error) {
	if page, total, ok, err := s.searchMovies(ctx, version, f, fields); ok || err != nil {
		return page, total, err
	}
	if s.reads.keyset != nil && len(f.Terms) == 0 && len(f.IDs) == 0 && f.ChangedSince.IsZero() {
		page, total, ok, err := cache.SeekPage(s.movieOrder(), version, f.Paging.Offset(), func(from, skip int64) ([]catalog.Movie, error) {
			return s.reads.keyset.MoviesFrom(ctx, from, skip, f.Paging.Limit, fields)
		})
		if ok {
			return page, total, err
		}
	}
	return s.store.ListMovies(ctx, f)
}

// servePayload answers a read from the response cache under key, or
// from a fill of its own when key is "" (an answer that depends on more
// than the query and the data), and writes it.
func (s *server) servePayload(w http.ResponseWriter, r *http.Request, key string, fill func(context.Context, int64) (*httpx.Payload, error)) {
	var p *httpx.Payload
	var err error
	if key != "" {
		p, err = s.reads.Get(r.Context(), key, fill)
	} else {
		p, err = s.reads.Uncached(r.Context(), fill)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WritePayload(w, r, http.StatusOK, p)
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
