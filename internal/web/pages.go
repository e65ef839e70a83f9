package web

import (
	"net/http"
	"strconv"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/html"
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
	Clips     []Card
	Pager     html.Pager
}

// Index answers GET /: the clips, searched, filtered by platform and
// paged by the parameters of GET /api/clips.
func (p *Pages) Index(w http.ResponseWriter, r *http.Request) {
	f, err := html.ParseFilter(r.URL.Query(), p.platforms)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	clips, total, err := p.search.Clips(r.Context(), 0, f.ClipFilter())
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
		Pager:     html.NewPager(f, "/", total, len(cards)),
	})
}

type clipPage struct {
	Clip        catalog.Clip
	PlatformURL string
	Player      string // "" when the URL cannot be framed
	Cover       Card   // shown instead of a player
	Added       time.Time
}

// Clip answers GET /clips/{id}: one clip with its player, or its cover
// when the player cannot be framed.
func (p *Pages) Clip(w http.ResponseWriter, r *http.Request) {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	c, err := p.store.GetClip(r.Context(), id)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		p.fail(w, r, catalog.Errorf(catalog.ENOTFOUND, "There is no clip number %d. It may have been removed.", id)) // problem.no_clip_number
		return
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	page := clipPage{Clip: c, Added: c.CreatedAt, Cover: newCard(c)}
	if c.Platform != "" {
		page.PlatformURL = html.Filter{Platform: c.Platform}.URL("/", 1)
	}
	var frames []string
	player := catalog.PlayerURL(c.IframeURL)
	if origin := frameOrigin(player); origin != "" {
		page.Player = player
		frames = playerFrameSrc(origin)
	}
	p.render(w, r, http.StatusOK, "clip", page, frames...)
}
