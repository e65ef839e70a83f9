package sqlite

import (
	"context"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// ClaimPosterJobs implements catalog.PosterStore.
func (s *Store) ClaimPosterJobs(ctx context.Context, now time.Time, lease time.Duration, limit int) (out []catalog.PosterJob, err error) {
	const what = "claim poster jobs"
	err = db{s: s}.Tx(ctx, what, func(tx sqlstore.DB) error {
		out, err = sqlstore.All(ctx, tx, what, `SELECT movie_id, slot, url, tries FROM poster_jobs
WHERE due <= $1 ORDER BY due, movie_id, slot LIMIT $2`, []any{now.Unix(), limit}, sqlstore.ScanPosterJob)
		for _, j := range out {
			if err == nil {
				_, err = tx.Exec(ctx, what, `UPDATE poster_jobs SET due = $1 WHERE movie_id = $2 AND slot = $3`, now.Add(lease).Unix(), j.MovieID, j.Slot)
			}
		}
		return err
	})
	return out, err
}
