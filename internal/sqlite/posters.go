package sqlite

import (
	"context"
	"database/sql"
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

// FinishPosterJobs implements catalog.PosterStore.
func (s *Store) FinishPosterJobs(ctx context.Context, done []catalog.PosterDone) error {
	const what = "finish poster jobs"
	if len(done) == 0 {
		return nil
	}
	return s.writeTx(ctx, what, func(tx *sql.Tx) error {
		for _, d := range done {
			set := `UPDATE movies SET poster1_mirror = ? WHERE id = ? AND poster1_url = ? AND poster1_mirror <> ?`
			if d.Job.Slot == 2 {
				set = `UPDATE movies SET poster2_mirror = ? WHERE id = ? AND poster2_url = ? AND poster2_mirror <> ?`
			}
			if _, err := tx.ExecContext(ctx, set, d.Mirror, d.Job.MovieID, d.Job.URL, d.Mirror); err != nil {
				return translate(err, what)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM poster_jobs WHERE movie_id = ? AND slot = ? AND url = ?`,
				d.Job.MovieID, d.Job.Slot, d.Job.URL); err != nil {
				return translate(err, what)
			}
		}
		return nil
	})
}
