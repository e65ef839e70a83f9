package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

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

// FinishPosterJobs implements catalog.PosterStore.
func (s *Store) FinishPosterJobs(ctx context.Context, done []catalog.PosterDone) error {
	if len(done) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		for _, d := range done {
			set := `UPDATE movies SET poster1_mirror = $1 WHERE id = $2 AND poster1_url = $3 AND poster1_mirror <> $1`
			if d.Job.Slot == 2 {
				set = `UPDATE movies SET poster2_mirror = $1 WHERE id = $2 AND poster2_url = $3 AND poster2_mirror <> $1`
			}
			b.Queue(set, d.Mirror, d.Job.MovieID, d.Job.URL)
			b.Queue(`DELETE FROM poster_jobs WHERE movie_id = $1 AND slot = $2 AND url = $3`, d.Job.MovieID, d.Job.Slot, d.Job.URL)
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	return translate(err, "finish poster jobs")
}
