package web

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"catalog/internal/catalog"
)

// Card is one clip in a grid.
type Card struct {
	ID       int64
	URL      string
	Title    string
	CoverURL string // "" shows the placeholder
	Platform string
	Actor    string
}

func newCard(c catalog.Clip) Card {
	return Card{
		ID:       c.ID,
		URL:      "/clips/" + strconv.FormatInt(c.ID, 10),
		Title:    c.Title,
		CoverURL: c.CoverURL,
		Platform: c.Platform,
		Actor:    c.Actor,
	}
}

// Filter is a clip search as the query string carries it (the same
// parameters as GET /api/clips), validated by the domain's rules.
type Filter struct {
	Q        string
	Terms    []string // Q's terms, checked by catalog.ParseSearch
	Platform string
	Paging   catalog.Paging
	// limitSet keeps an explicit limit in the links, so that a shared URL
	// shows the same pages.
	limitSet bool
}

// ParseSearch reads q (held to catalog.ParseSearch's limits), page and limit. Bad values are EINVALID errors
// whose messages a visitor can act on.
func ParseSearch(q url.Values) (Filter, error) {
	paging, err := catalog.ParsePaging(q)
	if err != nil {
		return Filter{}, err
	}
	terms, err := catalog.ParseSearch("q", q.Get("q"))
	if err != nil {
		return Filter{}, err
	}
	return Filter{Q: q.Get("q"), Terms: terms, Paging: paging, limitSet: q.Has("limit")}, nil
}

// ParseFilter is ParseSearch plus the platform filter of clip lists.
func ParseFilter(q url.Values, platforms *catalog.Platforms) (Filter, error) {
	f, err := ParseSearch(q)
	if err != nil {
		return Filter{}, err
	}
	if v := q.Get("platform"); v != "" {
		p, ok := platforms.Normalize(v)
		if !ok {
			return Filter{}, catalog.Errorf(catalog.EINVALID, "platform must be one of: %s", platforms.Allowed())
		}
		f.Platform = p
	}
	return f, nil
}

// ClipFilter is the store query of f.
func (f Filter) ClipFilter() catalog.ClipFilter {
	return catalog.ClipFilter{Terms: f.Terms, Platform: f.Platform, Paging: f.Paging}
}

// URL is base with f's parameters, on page; empty values are left out
// so that links stay short.
func (f Filter) URL(base string, page int64) string {
	v := url.Values{}
	if f.Q != "" {
		v.Set("q", f.Q)
	}
	if f.Platform != "" {
		v.Set("platform", f.Platform)
	}
	if page > 1 {
		v.Set("page", strconv.FormatInt(page, 10))
	}
	if f.limitSet {
		v.Set("limit", strconv.FormatInt(f.Paging.Limit, 10))
	}
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// Limit is the limit to carry in a search form, 0 when it is the default.
func (f Filter) Limit() int64 {
	if f.limitSet {
		return f.Paging.Limit
	}
	return 0
}

// Pager is the pagination of a list page.
type Pager struct {
	Page, PageCount int64
	Total           int64
	From, To        int64 // 1-based positions shown, 0 when none
	Prev, Next      string
	First           string // link back to page 1 when past the end
	Links           []PageLink
}

// PageLink is one numbered page link; Gap marks "…" between numbers.
type PageLink struct {
	Number  int64
	URL     string
	Current bool
	Gap     bool
}

// pagerWindow is how many page numbers are shown on each side of the
// current one.
const pagerWindow = 2

// NewPager builds the links of f's page of total records.
func NewPager(f Filter, base string, total int64, shown int) Pager {
	page := f.Paging.Page
	count := f.Paging.PageCount(total)
	pg := Pager{Page: page, PageCount: count, Total: total}
	if shown > 0 {
		pg.From = f.Paging.Offset() + 1
		pg.To = f.Paging.Offset() + int64(shown)
	}
	if page > 1 && page <= count {
		pg.Prev = f.URL(base, page-1)
	}
	if page < count {
		pg.Next = f.URL(base, page+1)
	}
	if page > count && count > 0 {
		pg.First = f.URL(base, 1)
	}
	if count <= 1 {
		return pg
	}
	// Only the first, the last and a window around the current page are
	// numbered, so a catalog of a million pages still gives a short list.
	numbers := []int64{1}
	for n := max(2, page-pagerWindow); n <= min(count-1, page+pagerWindow); n++ {
		numbers = append(numbers, n)
	}
	numbers = append(numbers, count)
	for i, n := range numbers {
		if i > 0 && n > numbers[i-1]+1 {
			pg.Links = append(pg.Links, PageLink{Gap: true})
		}
		pg.Links = append(pg.Links, PageLink{Number: n, URL: f.URL(base, n), Current: n == page})
	}
	return pg
}

type indexPage struct {
	Filter    Filter
	Platforms []string
	Clips     []Card
	Pager     Pager
}

func (p *Pages) index(w http.ResponseWriter, r *http.Request) {
	f, err := ParseFilter(r.URL.Query(), p.platforms)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	clips, total, err := p.store.ListClips(r.Context(), f.ClipFilter())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	cards := make([]Card, len(clips))
	for i, c := range clips {
		cards[i] = newCard(c)
	}
	p.render(w, r, http.StatusOK, "index", indexPage{
		Filter:    f,
		Platforms: p.platforms.List(),
		Clips:     cards,
		Pager:     NewPager(f, "/", total, len(cards)),
	})
}

type clipPage struct {
	Clip        catalog.Clip
	PlatformURL string
	Player      string // "" when the URL cannot be framed
	Cover       Card   // shown instead of a player
	Added       time.Time
}

func (p *Pages) clip(w http.ResponseWriter, r *http.Request) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	c, err := p.store.GetClip(r.Context(), id)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		p.fail(w, r, catalog.Errorf(catalog.ENOTFOUND, "There is no clip number %d. It may have been removed.", id))
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	page := clipPage{Clip: c, Added: c.CreatedAt, Cover: newCard(c)}
	if c.Platform != "" {
		page.PlatformURL = Filter{Platform: c.Platform}.URL("/", 1)
	}
	var frames []string
	player := catalog.PlayerURL(c.IframeURL)
	if origin := frameOrigin(player); origin != "" {
		page.Player = player
		frames = playerFrameSrc(origin)
	}
	p.render(w, r, http.StatusOK, "clip", page, frames...)
}
