package movieapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// The MacCMS v10 "provide" resource API (contract 6): what MacCMS's
// Provide.php answers and its Collect.php reads, so that existing
// collectors and player apps work against this service unchanged.

// Formats of the resource API: as the at parameter says, or fixed by
// the path (/at/xml, /at/json).
const (
	formatQuery = ""
	formatJSON  = "json"
	formatXML   = "xml"
)

// xmlContentType is the type of at=xml answers (contract 6).
const xmlContentType = "text/xml; charset=utf-8"

// vodQuery is a parsed resource API request.
type vodQuery struct {
	full   bool // ac=videolist or ac=detail
	xml    bool
	from   string // from=CODE: only that play group ("" = every group)
	filter catalog.VodFilter
}

// provideVod serves /api.php/provide/vod and its aliases; format is
// what the path fixes (formatQuery: the at parameter decides).
func (s *server) provideVod(format string) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		vq, err := parseVodQuery(r.URL.Query(), format, s.now())
		if err != nil {
			return err
		}
		key, contentType := "", ""
		if vq.filter.ChangedSince.IsZero() {
			key = vq.key() // h counts back from the clock: not cacheable
		}
		if vq.xml {
			contentType = xmlContentType
		}
		return s.reads.Serve(w, r, key, contentType, func(ctx context.Context, version int64) ([]byte, error) {
			return s.encodeVods(ctx, version, vq)
		})
	}
}

// parseVodQuery reads ac, pg, pagesize (limit), t, wd, h, ids, year and
// at. An empty parameter counts as absent: MacCMS's collector sends
// "t=&pg=&h=&ids=&wd=" when it has no value for them.
func parseVodQuery(q url.Values, format string, now time.Time) (vodQuery, error) {
	var vq vodQuery
	var err error
	switch q.Get("ac") {
	case "videolist", "detail":
		vq.full = true
	}
	vq.xml = format == formatXML || (format == formatQuery && q.Get("at") == formatXML)
	f := &vq.filter
	if f.Paging, err = catalog.ParseVodPaging(q); err != nil {
		return vq, err
	}
	if v := q.Get("t"); v != "" {
		if f.TypeID, err = catalog.ParseID(v); err != nil {
			return vq, catalog.Errorf(catalog.EINVALID, "t must be a type id (a positive integer), got %q", v)
		}
	}
	if f.Terms, err = catalog.ParseSearch("wd", q.Get("wd")); err != nil {
		return vq, err
	}
	if f.IDs, err = parseIDs(q.Get("ids")); err != nil {
		return vq, err
	}
	if v := q.Get("h"); v != "" {
		if f.ChangedSince, err = parseHours(v, now); err != nil {
			return vq, err
		}
	}
	if v := q.Get("year"); v != "" {
		if f.Years, err = catalog.ParseYearRange(v); err != nil {
			return vq, err
		}
	}
	return vq, nil
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

// key is the normalised form of a cacheable request.
func (vq vodQuery) key() string {
	f := vq.filter
	var b strings.Builder
	b.WriteString("vod\x00")
	b.WriteByte('0' + boolDigit(vq.full) + 2*boolDigit(vq.xml))
	for _, n := range []int64{f.Paging.Page, f.Paging.Limit, f.TypeID} {
		b.WriteByte(0)
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte(0)
	b.WriteString(f.Years.From + "-" + f.Years.To)
	cache.AppendTerms(&b, f.Terms)
	for _, id := range f.IDs {
		b.WriteString("\x00i")
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

func boolDigit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// encodeVods runs the query (and, for ac=list, reads the types) and
// encodes the answer.
func (s *server) encodeVods(ctx context.Context, version int64, vq vodQuery) ([]byte, error) {
	vods, total, err := s.pageOfVods(ctx, version, vq.filter)
	if err != nil {
		return nil, err
	}
	var types []catalog.VodType
	if !vq.full {
		if types, err = s.store.VodTypes(ctx); err != nil {
			return nil, err
		}
	}
	if vq.xml {
		return appendVodsXML(make([]byte, 0, 256+len(vods)*vodSizeHint(vq.full)), vq, vods, total, types), nil
	}
	return appendVodsJSON(make([]byte, 0, 256+len(vods)*vodSizeHint(vq.full)), vq, vods, total, types), nil
}

// vodSizeHint is a typical encoded record, to size the buffer once.
func vodSizeHint(full bool) int {
	if full {
		return 1536
	}
	return 256
}

// vodOrderOf returns the change order of the whole catalog: a
// collector walks every page in turn, and without it page N skips N-1
// pages of index entries.
func (s *server) vodOrderOf() *cache.Order { return s.reads.Order("vod", s.store.VodIDs) }

// pageOfVods is ListVods, with deep unfiltered pages served by a seek
// when the change order is at version (the version read for this
// request).
func (s *server) pageOfVods(ctx context.Context, version int64, f catalog.VodFilter) ([]catalog.Vod, int64, error) {
	if len(f.Terms) == 0 && len(f.IDs) == 0 && f.TypeID == 0 && f.ChangedSince.IsZero() && f.Years.IsZero() {
		page, total, ok, err := cache.SeekPage(ctx, s.vodOrderOf(), version, f.Paging.Offset(), func(from, skip int64) ([]catalog.Vod, error) {
			return s.store.VodsFrom(ctx, from, skip, f.Paging.Limit)
		})
		if ok {
			return page, total, err
		}
	}
	return s.store.ListVods(ctx, f)
}
