// Package maccms is the MacCMS v10 "provide" resource API (contract 6):
// what MacCMS's Provide.php answers and its Collect.php reads, so that
// existing collectors and player apps work against the movie service
// unchanged. The movie service mounts it (API.Routes) under its own
// error shape, headers and response cache.
package maccms

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
	"catalog/internal/httpx"
	"catalog/internal/search"
)

// Index pages the resource API's records and counts their values: the
// movies' in-process index (search.Live).
type Index interface {
	Vods(ctx context.Context, version int64, f catalog.VodFilter) ([]catalog.Vod, int64, error)
	Facet(ctx context.Context, version int64, field string, q search.Query) (search.FacetPage, error)
}

// Reads answers a read through the service's response cache (cache.
// Reads): under key ("" is not cached), with contentType ("" is JSON),
// from encode, which gets the data version the answer is for.
type Reads interface {
	Serve(w http.ResponseWriter, r *http.Request, key, contentType string,
		encode func(ctx context.Context, version int64) ([]byte, error)) error
}

// Config is what the resource API reads.
type Config struct {
	Index Index
	Types catalog.VodStore // every type, for ac=list
	Reads Reads
}

// API serves the resource API.
type API struct {
	index Index
	types catalog.VodStore
	reads Reads
	now   func() time.Time
}

// New returns the resource API over cfg.
func New(cfg Config) *API {
	return &API{index: cfg.Index, types: cfg.Types, reads: cfg.Reads, now: time.Now}
}

// Routes calls get with every path of the resource API (the paths
// MacCMS sites use) and its handler.
func (a *API) Routes(get func(path string, h httpx.HandlerFunc)) {
	get("/api.php/provide/vod", a.provideVod(formatQuery))
	get("/api.php/provide/vod/{$}", a.provideVod(formatQuery))
	get("/api/provide/vod", a.provideVod(formatQuery))
	for _, format := range []string{formatXML, formatJSON} {
		get("/api.php/provide/vod/at/"+format, a.provideVod(format))
		get("/api.php/provide/vod/at/"+format+"/{$}", a.provideVod(format))
	}
	// Any other /KEY/VALUE pairs, ThinkPHP style (contract 6).
	for _, path := range pairPaths() {
		get(path, a.provideVod(formatQuery))
	}
}

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
	none   bool   // nothing can match: every id dropped, or a play group no movie has
	filter catalog.VodFilter
}

// provideVod serves /api.php/provide/vod and its aliases; format is
// what the path fixes (formatQuery: the at parameter decides).
func (a *API) provideVod(format string) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := r.URL.Query()
		if r.PathValue("k1") != "" {
			format = pathParams(q, r)
		}
		now := a.now()
		vq, err := parseVodQuery(q, format, now)
		if err != nil {
			return err
		}
		key, contentType := "", ""
		if vq.filter.ChangedSince.IsZero() {
			// h counts back from the clock: not cacheable. Full records
			// carry the day's hits.
			key = cache.DayKey(vq.key(), now)
		}
		if vq.xml {
			contentType = xmlContentType
		}
		return a.reads.Serve(w, r, key, contentType, func(ctx context.Context, version int64) ([]byte, error) {
			return a.encodeVods(ctx, version, vq)
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
	if v := catalog.VodParam(q, "t"); v != "" {
		if f.TypeID, err = catalog.ParseID(v); err != nil {
			return vq, catalog.Errorf(catalog.EINVALID, "t must be a type id (a positive integer), got %q", v)
		}
	}
	if f.Terms, err = catalog.ParseSearch("wd", q.Get("wd")); err != nil {
		return vq, err
	}
	if f.IDs, vq.none, err = parseVodIDs(q.Get("ids")); err != nil {
		return vq, err
	}
	if v := catalog.VodParam(q, "h"); v != "" {
		if f.ChangedSince, err = catalog.ParseHours(v, now); err != nil {
			return vq, err
		}
	}
	if err := parseBrowse(q, &vq); err != nil {
		return vq, err
	}
	if vq.from = q.Get("from"); vq.from != "" {
		f.PlayKind = catalog.PlayKindOf(vq.from)
		vq.none = vq.none || f.PlayKind == 0
	}
	f.Ascending = q.Get("sort_direction") == "asc"
	return vq, nil
}

// parseVodIDs reads ids as Provide.php does: the ids that are not
// numbers are dropped. none is set when ids were given and none is
// left, which matches no movie.
func parseVodIDs(s string) (ids []int64, none bool, err error) {
	if strings.TrimSpace(s) == "" {
		return nil, false, nil
	}
	if strings.Count(s, ",") >= catalog.MaxIDs {
		return nil, false, catalog.Errorf(catalog.EINVALID, "ids must list at most %d ids", catalog.MaxIDs)
	}
	for part := range strings.SplitSeq(s, ",") {
		if id, err := catalog.ParseID(strings.TrimSpace(part)); err == nil && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, len(ids) == 0, nil
}

// maxPathPairs is how many /KEY/VALUE pairs a path may hold.
const maxPathPairs = 4

// pairPaths are the route patterns of 1 to maxPathPairs /KEY/VALUE
// pairs after /api.php/provide/vod/, with and without a trailing "/",
// the pairs named k1, v1, k2, v2 and so on.
func pairPaths() []string {
	var paths []string
	path := "/api.php/provide/vod"
	for i := 1; i <= maxPathPairs; i++ {
		n := strconv.Itoa(i)
		path += "/{k" + n + "}/{v" + n + "}"
		paths = append(paths, path, path+"/{$}")
	}
	return paths
}

// pathParams reads the /KEY/VALUE pairs of a pairPaths route into q, as
// ThinkPHP routes them (/from/m3u8/at/xml/): a pair wins over the query
// string. It returns the format the path fixes (at/xml, at/json), else
// formatQuery.
func pathParams(q url.Values, r *http.Request) string {
	format := formatQuery
	for i := 1; i <= maxPathPairs; i++ {
		n := strconv.Itoa(i)
		key, value := r.PathValue("k"+n), r.PathValue("v"+n)
		if key == "" {
			break
		}
		q.Set(key, value)
		if key == "at" && (value == formatXML || value == formatJSON) {
			format = value
		}
	}
	return format
}

// key is the normalised form of a cacheable request.
func (vq vodQuery) key() string {
	f := vq.filter
	var b strings.Builder
	b.WriteString("vod\x00")
	b.WriteByte('0' + boolDigit(vq.full) + 2*boolDigit(vq.xml))
	for _, n := range []int64{f.Paging.Page, f.Paging.Limit, f.TypeID, f.PlayKind, int64(boolDigit(f.Ascending)), int64(boolDigit(vq.none)), int64(f.By)} {
		b.WriteByte(0)
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte(0)
	b.WriteString(f.Years.From + "-" + f.Years.To)
	cache.AppendTerms(&b, f.Terms)
	cache.AppendMatch(&b, f.Match)
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
func (a *API) encodeVods(ctx context.Context, version int64, vq vodQuery) ([]byte, error) {
	var vods []catalog.Vod
	var total int64
	var err error
	if !vq.none {
		if vods, total, err = a.index.Vods(ctx, version, vq.filter); err != nil {
			return nil, err
		}
	}
	var types []catalog.VodType
	if !vq.full {
		if types, err = a.types.VodTypes(ctx); err != nil {
			return nil, err
		}
	}
	if vq.xml {
		return appendVodsXML(make([]byte, 0, 256+len(vods)*vodSizeHint(vq.full)), vq, vods, total, types)
	}
	var filters []typeFilters
	if !vq.full {
		if filters, err = a.filters(ctx, version, types); err != nil {
			return nil, err
		}
	}
	return appendVodsJSON(make([]byte, 0, 256+len(vods)*vodSizeHint(vq.full)), vq, vods, total, types, filters)
}

// vodSizeHint is a typical encoded record, to size the buffer once.
func vodSizeHint(full bool) int {
	if full {
		return 1536
	}
	return 256
}
