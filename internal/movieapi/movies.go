package movieapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

const (
	// maxIDs bounds the ids parameter of /api/jav (contract 4.3).
	maxIDs = 100
	// maxHours bounds the h parameter of /api/jav: one year.
	maxHours = 8760
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

func (s *API) listMovies(w http.ResponseWriter, r *http.Request) error {
	return s.serveList(w, r, false)
}
func (s *API) listJav(w http.ResponseWriter, r *http.Request) error {
	return s.serveList(w, r, true)
}

func (s *API) movieDetail(w http.ResponseWriter, r *http.Request) error {
	return s.serveDetail(w, r, false)
}
func (s *API) javDetail(w http.ResponseWriter, r *http.Request) error {
	return s.serveDetail(w, r, true)
}

func (s *API) serveSnapshot(w http.ResponseWriter, r *http.Request) error {
	if s.snapshots == nil {
		return catalog.Errorf(catalog.EUNAVAILABLE, "snapshot not ready")
	}
	return s.snapshots.Serve(w, r)
}

func (s *API) serveList(w http.ResponseWriter, r *http.Request, legacy bool) error {
	lq, err := parseListQuery(r.URL.Query(), legacy, s.now())
	if err != nil {
		return err
	}
	key := ""
	if lq.cacheable() {
		key = s.dayKey(lq.key())
	}
	return s.reads.Serve(w, r, key, "", func(ctx context.Context, version int64) ([]byte, error) {
		return s.encodeList(ctx, version, lq)
	})
}

func (s *API) serveDetail(w http.ResponseWriter, r *http.Request, legacy bool) error {
	dq, err := parseDetailQuery(r.PathValue("id"), r.URL.Query(), legacy)
	if err != nil {
		return err
	}
	return s.reads.Serve(w, r, s.dayKey(dq.key()), "", func(ctx context.Context, _ int64) ([]byte, error) {
		return s.encodeDetail(ctx, dq)
	})
}

// parseListQuery reads fields, page, limit and q; the legacy form also
// takes pg (page), wd (q), ids and h. When both q and wd are given, q
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
	if !legacy {
		return lq, nil
	}
	if lq.filter.IDs, err = parseIDs(q.Get("ids")); err != nil {
		return lq, err
	}
	if _, ok := q["h"]; ok {
		if lq.filter.ChangedSince, err = parseHours(q.Get("h"), now); err != nil {
			return lq, err
		}
	}
	return lq, nil
}

// parseIDs reads ids=1,2,3: positive integers, spaces around them
// ignored, duplicates collapsed, at most maxIDs given. An empty value is
// no filter, like an empty q.
func parseIDs(s string) ([]int64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if strings.Count(s, ",") >= maxIDs {
		return nil, catalog.Errorf(catalog.EINVALID, "ids must list at most %d ids", maxIDs)
	}
	var ids []int64
	for part := range strings.SplitSeq(s, ",") {
		id, err := catalog.ParseID(strings.TrimSpace(part))
		if err != nil {
			return nil, catalog.Errorf(catalog.EINVALID, "ids must be comma-separated positive integers, got %q", strings.TrimSpace(part))
		}
		if !containsID(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// parseHours reads h (hours back from now, 1 to maxHours) into the
// earliest change time it admits.
func parseHours(v string, now time.Time) (time.Time, error) {
	hours, err := catalog.ParseID(v)
	if err != nil || hours > maxHours {
		return time.Time{}, catalog.Errorf(catalog.EINVALID, "h must be a whole number of hours from 1 to %d", maxHours)
	}
	return now.Add(-time.Duration(hours) * time.Hour), nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
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

// encodeList runs the query and encodes the list envelope (contract 4.2)
// by hand, keys in the contract's order.
func (s *API) encodeList(ctx context.Context, version int64, lq listQuery) ([]byte, error) {
	movies, total, err := s.search.Movies(ctx, version, lq.filter, lq.fields)
	if err != nil {
		return nil, err
	}
	b := appendListHead(make([]byte, 0, 128+len(movies)*1024), lq.filter.Paging, total, limitString)
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
}

// How the list envelope carries limit: a string in /api/movies and
// /api/jav (contract 4.2), a number in the MacCMS resource API, as
// MacCMS sends it (contract 6).
const (
	limitString = true
	limitNumber = false
)

// appendListHead appends the list envelope (contract 4.2) up to the
// opening of its list; limit is a string when quoted is set.
func appendListHead(b []byte, p catalog.Paging, total int64, quoted bool) []byte {
	b = append(b, `{"code":1,"msg":"data list","page":`...)
	b = strconv.AppendInt(b, p.Page, 10)
	b = append(b, `,"pagecount":`...)
	b = strconv.AppendInt(b, p.PageCount(total), 10)
	b = append(b, `,"limit":`...)
	if quoted {
		b = append(b, '"')
	}
	b = strconv.AppendInt(b, p.Limit, 10)
	if quoted {
		b = append(b, '"')
	}
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, total, 10)
	return append(b, `,"list":[`...)
}

// encodeDetail loads one movie and encodes the detail envelope.
func (s *API) encodeDetail(ctx context.Context, dq detailQuery) ([]byte, error) {
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
}
