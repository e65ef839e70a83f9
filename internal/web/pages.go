package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/search"
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

type indexPage struct {
	Filter    html.Filter
	Platforms []string
	Chips     []html.FilterChip
	Facets    []facetLink
	Clips     []Card
	Pager     html.Pager
}

type facetLink struct{ Field, URL string }

// clipFacetFields are the fields the pages list with their counts, as
// GET /api/clips/facets names them (contract 12).
var clipFacetFields = []string{search.FacetPlatform, "actor", "studio"}

// facetLinks are the links to every facet under f's filters.
func facetLinks(f html.Filter) []facetLink {
	out := make([]facetLink, len(clipFacetFields))
	for i, field := range clipFacetFields {
		out[i] = facetLink{Field: field, URL: f.Facets(field).URL("/", 1)}
	}
	return out
}

// Index answers GET /: the clips, searched, filtered by platform, actor
// and studio and paged by the parameters of GET /api/clips; with
// facet=F, the values of F under the other filters with their counts
// (GET /api/clips/facets), each linking to the clips filtered on it.
func (p *Pages) Index(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := html.ParseFilter(q, p.Platforms)
	if err == nil && q.Get("facet") != "" {
		if f.Facet = q.Get("facet"); !slices.Contains(clipFacetFields, f.Facet) {
			err = catalog.Errorf(catalog.EINVALID, "facet must be one of %s", strings.Join(clipFacetFields, ", ")) // problem.param_one_of
		}
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	if f.Facet != "" {
		p.facet(w, r, f)
		return
	}
	clips, total, err := p.Search.Clips(r.Context(), 0, f.ClipFilter())
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
		Platforms: p.Platforms.List(),
		Chips:     f.Chips("/"),
		Facets:    facetLinks(f),
		Clips:     cards,
		Pager:     html.NewPager(f, "/", total, len(cards)),
	})
}

type facetPage struct {
	Filter html.Filter
	Chips  []html.FilterChip
	Facets []facetLink
	Back   string // the clips under the same filters
	Rows   []html.FacetRow
	Pager  html.Pager
}

// facet shows the values of f.Facet over the clips f's other filters
// select, most used first.
func (p *Pages) facet(w http.ResponseWriter, r *http.Request, f html.Filter) {
	page, err := p.Search.ClipFacet(r.Context(), 0, f.Facet, f.ClipFilter())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.render(w, r, http.StatusOK, "facet", facetPage{
		Filter: f,
		Chips:  f.Chips("/"),
		Facets: facetLinks(f),
		Back:   f.With("", "").URL("/", 1),
		Rows:   html.FacetRows(f, "/", page.Values),
		Pager:  html.NewPager(f, "/", page.Total, len(page.Values)),
	})
}

type clipPage struct {
	Clip catalog.Clip
	// The grid of its platform, actor and studio; "" when it has none.
	PlatformURL, ActorURL, StudioURL string
	Player                           string // "" when the URL cannot be framed
	Cover                            Card   // shown instead of a player
	Added                            time.Time
}

// Clip answers GET /clips/{id}: one clip with its player, or its cover
// when the player cannot be framed.
func (p *Pages) Clip(w http.ResponseWriter, r *http.Request) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	c, err := p.Store.GetClip(r.Context(), id)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		p.fail(w, r, catalog.Errorf(catalog.ENOTFOUND, "There is no clip number %d. It may have been removed.", id)) // problem.no_clip_number
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	page := clipPage{Clip: c, Added: c.CreatedAt, Cover: newCard(c),
		PlatformURL: gridOf("platform", c.Platform), ActorURL: gridOf("actor", c.Actor), StudioURL: gridOf("studio", c.Studio)}
	var frames []string
	player := catalog.PlayerURL(c.IframeURL)
	if origin := frameOrigin(player); origin != "" {
		page.Player = player
		frames = playerFrameSrc(origin)
	}
	p.render(w, r, http.StatusOK, "clip", page, frames...)
}

// gridOf is the grid filtered on one value, "" for no value.
func gridOf(param, value string) string {
	if value == "" {
		return ""
	}
	return html.Filter{}.With(param, value).URL("/", 1)
}
