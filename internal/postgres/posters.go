package postgres

import (
	"context"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// ClaimPosterJobs implements catalog.PosterStore.
func (s *Store) ClaimPosterJobs(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]catalog.PosterJob, error) {
	return sqlstore.All(ctx, db{s: s}, "claim poster jobs", `WITH due AS (
    SELECT movie_id, slot FROM poster_jobs WHERE due <= $1 ORDER BY due, movie_id, slot LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE poster_jobs j SET due = $3 FROM due WHERE j.movie_id = due.movie_id AND j.slot = due.slot
RETURNING j.movie_id, j.slot, j.url, j.tries`, []any{now.Unix(), limit, now.Add(lease).Unix()}, sqlstore.ScanPosterJob)
}
