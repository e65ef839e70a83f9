package movieapi

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/edge"
	"catalog/internal/httpx"
	"catalog/internal/search"
)

// listQuery is a parsed list request. Encoding depends only on it and
// the store's contents, so it (with DataVersion) can key a response cache.
type listQuery struct {
	legacy bool
	fields catalog.FieldSet
	filter catalog.MovieFilter
}

// detailQuery is a parsed detail request.
type detailQuery struct {
	legacy bool
	id     int64
	fields catalog.FieldSet
}

func (s *API) serveSnapshot(w http.ResponseWriter, r *http.Request) error {
	if s.snapshots == nil {
		return catalog.Errorf(catalog.EUNAVAILABLE, "snapshot not ready")
	}
	return s.snapshots.Serve(w, r)
}

// list is the handler of /api/movies, or of /api/jav when legacy: it
// parses the query, then answers from the response cache or runs the
// query on the index and encodes the list envelope (contract 4.2) by
// hand, keys in the contract's order.
func (s *API) list(legacy bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		lq, err := parseListQuery(r.URL.Query(), legacy, s.now())
		if err != nil {
			return err
		}
		key := "" // "h" counts back from the clock: not cached
		if lq.filter.ChangedSince.IsZero() {
			key = cache.DayKey(lq.key(), s.now())
		}
		return s.reads.Serve(w, r, key, "", func(ctx context.Context, version int64) ([]byte, error) {
			movies, total, err := s.search.Movies(ctx, version, lq.filter, lq.fields)
			if err != nil {
				return nil, err
			}
			b := lq.filter.Paging.AppendListHead(make([]byte, 0, 128+len(movies)*1024), total, true)
			for i := range movies {
				if i > 0 {
					b = append(b, ',')
				}
				b = movies[i].AppendJSON(b, lq.fields, lq.legacy)
				if len(b) > catalog.MaxPageBytes {
					return nil, catalog.PageTooLarge("limit")
				}
			}
			return append(b, "]}"...), nil
		})
	}
}

// detail is the handler of /api/movies/{id}, or of /api/jav/{id} when
// legacy: one movie in the detail envelope, tagged with "movies" and
// its own surrogate key once its id is known to be well formed.
func (s *API) detail(legacy bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		dq, err := parseDetailQuery(r.PathValue("id"), r.URL.Query(), legacy)
		if err != nil {
			return err
		}
		edge.SetKeys(w.Header(), edge.Movies, edge.MovieKey(dq.id))
		return s.reads.Serve(w, r, cache.DayKey(dq.key(), s.now()), "", func(ctx context.Context, _ int64) ([]byte, error) {
			movies, err := s.store.MoviesByID(ctx, []int64{dq.id}, dq.fields)
			if err != nil {
				return nil, err
			}
			if len(movies) == 0 {
				return nil, errMovieNotFound()
			}
			b := make([]byte, 0, 2048)
			b = append(b, `{"code":1,"msg":"data detail","data":`...)
			b = movies[0].AppendJSON(b, dq.fields, dq.legacy)
			return append(b, '}'), nil
		})
	}
}

// movieValueFields are the value filters of the movie lists (contract
// 12), in the order the cache key lists them.
var movieValueFields = []catalog.ValueField{catalog.ValueCategory, catalog.ValueActor, catalog.ValueDirector,
	catalog.ValueStudio, catalog.ValueGenre, catalog.ValueCountry}

// parseBrowse reads the filters of contract 12 (the value filters and
// year) into f.
func parseBrowse(q url.Values, f *catalog.MovieFilter) error {
	var err error
	if f.Match, err = catalog.ParseValueFilters(q, movieValueFields...); err != nil {
		return err
	}
	if v := q.Get("year"); v != "" {
		if f.Years, err = catalog.ParseYearRange(v); err != nil {
			return err
		}
	}
	return nil
}

// parseListQuery reads fields, page, limit, q, the filters and sort; the
// legacy form also takes pg (page), wd (q), ids and h. When both q and wd are given, q
// wins, as page wins over pg.
func parseListQuery(q url.Values, legacy bool, now time.Time) (listQuery, error) {
	lq := listQuery{legacy: legacy}
	var err error
	if lq.fields, err = catalog.ParseFields(q.Get("fields"), legacy); err != nil {
		return lq, err
	}
	pageKeys := []string{"page"}
	if legacy {
		pageKeys = append(pageKeys, "pg")
	}
	if lq.filter.Paging, err = catalog.ParsePaging(q, pageKeys...); err != nil {
		return lq, err
	}
	param := "q"
	if _, ok := q["q"]; !ok && legacy {
		param = "wd"
	}
	if lq.filter.Terms, err = catalog.ParseSearch(param, q.Get(param)); err != nil {
		return lq, err
	}
	if err := parseBrowse(q, &lq.filter); err != nil {
		return lq, err
	}
	if lq.filter.Sort, err = catalog.ParseSort(q.Get("sort")); err != nil {
		return lq, err
	}
	if !legacy {
		return lq, nil
	}
	if lq.filter.IDs, err = parseIDs(q.Get("ids")); err != nil {
		return lq, err
	}
	if _, ok := q["h"]; ok {
		if lq.filter.ChangedSince, err = catalog.ParseHours(q.Get("h"), now); err != nil {
			return lq, err
		}
	}
	return lq, nil
}

// movieFacetFields are the fields of /api/movies/facets (contract 12).
var movieFacetFields = []string{"category", "actor", "director", "studio", "genre", "country", search.FacetYear}

// movieFacets answers GET /api/movies/facets?field=F with page, limit, q
// and the filters: the values of F with their counts, in the list
// envelope.
func (s *API) movieFacets(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	field := q.Get("field")
	if !slices.Contains(movieFacetFields, field) {
		return catalog.Errorf(catalog.EINVALID, "field must be one of %s", strings.Join(movieFacetFields, ", "))
	}
	var f catalog.MovieFilter
	var err error
	if f.Paging, err = catalog.ParsePaging(q); err != nil {
		return err
	}
	if f.Terms, err = catalog.ParseSearch("q", q.Get("q")); err != nil {
		return err
	}
	if err := parseBrowse(q, &f); err != nil {
		return err
	}
	var key strings.Builder
	key.WriteString("facets\x00" + field + "\x00")
	key.WriteString(strconv.FormatInt(f.Paging.Page, 10) + "\x00" + strconv.FormatInt(f.Paging.Limit, 10))
	cache.AppendTerms(&key, f.Terms)
	appendBrowseKey(&key, f.Match, f.Years)
	return s.reads.Serve(w, r, key.String(), "", func(ctx context.Context, version int64) ([]byte, error) {
		p, err := s.search.MovieFacet(ctx, version, field, f)
		if err != nil {
			return nil, err
		}
		b := f.Paging.AppendListHead(make([]byte, 0, 128+len(p.Values)*48), p.Total, true)
		return append(catalog.AppendFacetValues(b, p.Values), "]}"...), nil
	})
}

// parseIDs reads ids=1,2,3: positive integers, spaces around them
// ignored, duplicates collapsed, at most catalog.MaxIDs given. An empty value is
// no filter, like an empty q.
func parseIDs(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if strings.Count(s, ",") >= catalog.MaxIDs {
		return nil, catalog.Errorf(catalog.EINVALID, "ids must list at most %d ids", catalog.MaxIDs)
	}
	var ids []int64
	for part := range strings.SplitSeq(s, ",") {
		id, err := catalog.ParseID(strings.TrimSpace(part))
		if err != nil {
			return nil, catalog.Errorf(catalog.EINVALID, "ids must be comma-separated positive integers, got %q", strings.TrimSpace(part))
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func parseDetailQuery(id string, q url.Values, legacy bool) (detailQuery, error) {
	dq := detailQuery{legacy: legacy}
	var err error
	if dq.id, err = catalog.ParseID(id); err != nil {
		return dq, err
	}
	dq.fields, err = catalog.ParseFields(q.Get("fields"), legacy)
	return dq, err
}
