package admin

import (
	"net/http"
	"strconv"
	"time"

	"catalog/internal/catalog"
)

// maxDeadLinks bounds the Dead links page.
const maxDeadLinks = 500

// linksPage is the console's Dead links page (contract 13).
type linksPage struct {
	chrome
	Notice string
	Links  []deadLink
}

// deadLink is one row of the page.
type deadLink struct {
	Source    string
	MovieID   int64
	MovieName string
	Server    string
	Since     time.Time
	Problem   string
}

// DeadLinks answers GET /admin/links: the servers the link prober found
// dead, by source, each with a button to check it again now.
func (s *Service) DeadLinks(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	p := linksPage{chrome: s.chrome(r, sess, "links")}
	if id := r.URL.Query().Get("rechecked"); id != "" {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			p.Notice = p.l.T("notice.rechecked", "ID", n)
		}
	}
	list, err := s.Store.DeadLinks(r.Context(), maxDeadLinks)
	if err != nil {
		return err
	}
	for _, ls := range list {
		d := deadLink{Source: catalog.SourceOfServer(ls.Health.Server), MovieID: ls.MovieID, MovieName: ls.MovieName,
			Server: ls.Health.Server, Problem: ls.Health.Problem}
		if ls.Health.FailedSince != 0 {
			d.Since = catalog.UnixTime(ls.Health.FailedSince)
		}
		p.Links = append(p.Links, d)
	}
	s.render(w, r, http.StatusOK, "links", p)
	return nil
}

// RecheckLink answers POST /admin/links/{id}/recheck: the movie goes to the
// front of the link prober's queue, as a player's report puts it.
func (s *Service) RecheckLink(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.Store.ReportLink(r.Context(), id)
	}
	if err != nil {
		return notFound(err, "There is no movie #%d. It may have been deleted.", id) // problem.no_movie
	}
	if s.Recheck != nil {
		s.Recheck()
	}
	return s.done(w, r, sess, "/admin/links?rechecked="+strconv.FormatInt(id, 10), "link check requested", "movie", id)
}
