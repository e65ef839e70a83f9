package movieapi

import (
	"net/http"
	"strconv"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/ratelimit"
)

// Hits (contract 12): a player's beacon counts one play, at most once
// per client address per movie per HitWindow; the counts are added up
// in memory and written in batches (internal/hits).
const (
	hitPath = "/api/movies/{id}/hit"
	// HitWindow is how often one client's hit of one movie counts.
	HitWindow = time.Hour
	// hitKeys bounds the hit limiter: about 40 bytes a key, so 80 MiB
	// when full. Past that many plays within an hour the window of the
	// oldest ends early (ratelimit.Once): counting goes on.
	hitKeys = 1 << 21
)

// HitCounter adds up hits until they are written (hits.Counter).
type HitCounter interface {
	Add(id int64)
}

// countHit answers the beacon: 204 whether the hit counted or not, so
// that a client cannot tell; 404 for no such movie. The movie's
// existence is the one read a beacon costs: a keyed read of its id.
func (s *API) countHit(w http.ResponseWriter, r *http.Request) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	found, err := s.store.MoviesByID(r.Context(), []int64{id}, 1<<catalog.FieldID)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return errMovieNotFound()
	}
	if s.hits != nil && s.hitLimit.Allow(ratelimit.ClientKey(r)+" "+strconv.FormatInt(id, 10)) {
		s.hits.Add(id)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// postPreflight answers the CORS preflight of a POST from a player's
// page of any origin.
func postPreflight(w http.ResponseWriter, r *http.Request) {
	preflightFor(w, r, "POST, OPTIONS")
}
