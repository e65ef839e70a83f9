package movieapi

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"

	"catalog/internal/catalog"
	"catalog/internal/ratelimit"
)

// Failure reports from players (contract 13).
const (
	reportPath = "/api/movies/{id}/report"
	// maxReportBody bounds a report's body.
	maxReportBody = 1 << 10
	// ReportWindow is how often one client's report of one movie counts.
	ReportWindow = time.Hour
)

// report is a player's failure report: the server and the episode (its
// slug) that did not play.
type report struct {
	Server  string `json:"server"`
	Episode string `json:"episode"`
}

// reportFailure records a player's failure report: it moves the movie
// to the front of the link prober's queue, at most once per client
// address per movie per ReportWindow; it never marks a server dead by
// itself. 204 whether it counted or not, so that a client cannot tell.
func (s *API) reportFailure(w http.ResponseWriter, r *http.Request) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxReportBody+1))
	if err != nil {
		return catalog.Errorf(catalog.EINVALID, "could not read the report")
	}
	if len(body) > maxReportBody {
		return catalog.Errorf(catalog.EINVALID, "a report is at most %d bytes", maxReportBody)
	}
	var rep report
	if err := json.Unmarshal(bytes.TrimSpace(body), &rep, json.RejectUnknownMembers(true)); err != nil {
		return catalog.Errorf(catalog.EINVALID, `a report is {"server": "NAME", "episode": "SLUG"}`)
	}
	if rep.Server == "" || rep.Episode == "" {
		return catalog.Errorf(catalog.EINVALID, "server and episode are required")
	}
	m, err := s.store.GetMovie(r.Context(), id)
	if err != nil {
		return err
	}
	if err := hasEpisode(m.Episodes, rep); err != nil {
		return err
	}
	if s.reports.Allow(ratelimit.ClientKey(r) + " " + strconv.FormatInt(id, 10)) {
		if err := s.store.ReportLink(r.Context(), id); err != nil {
			return err
		}
		if s.reported != nil {
			s.reported()
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// hasEpisode is ENOTFOUND unless the movie has the server and episode
// of rep.
func hasEpisode(servers []catalog.Server, rep report) error {
	for _, sv := range servers {
		if sv.Name != rep.Server {
			continue
		}
		for _, e := range sv.Episodes {
			if e.Slug == rep.Episode {
				return nil
			}
		}
		return catalog.Errorf(catalog.ENOTFOUND, "server %q has no episode %q", rep.Server, rep.Episode)
	}
	return catalog.Errorf(catalog.ENOTFOUND, "the movie has no server %q", rep.Server)
}
