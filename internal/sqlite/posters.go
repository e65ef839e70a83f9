package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
)

// ClaimPosterJobs implements catalog.PosterStore.
func (s *Store) ClaimPosterJobs(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]catalog.PosterJob, error) {
	const what = "claim poster jobs"
	var out []catalog.PosterJob
	err := s.writeTx(ctx, what, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT movie_id, slot, url, tries FROM poster_jobs
WHERE due <= ? ORDER BY due, movie_id, slot LIMIT ?`, now.Unix(), limit)
		if err != nil {
			return translate(err, what)
		}
		defer rows.Close()
		for rows.Next() {
			var j catalog.PosterJob
			if err := rows.Scan(&j.MovieID, &j.Slot, &j.URL, &j.Tries); err != nil {
				return translate(err, what)
			}
			out = append(out, j)
		}
		if err := rows.Err(); err != nil {
			return translate(err, what)
		}
		rows.Close()
		for _, j := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE poster_jobs SET due = ? WHERE movie_id = ? AND slot = ?`,
				now.Add(lease).Unix(), j.MovieID, j.Slot); err != nil {
				return translate(err, what)
			}
		}
		return nil
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
