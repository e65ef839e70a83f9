package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// ClaimPosterJobs implements catalog.PosterStore.
func (s *Store) ClaimPosterJobs(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]catalog.PosterJob, error) {
	rows, err := s.pool.Query(ctx, `WITH due AS (
    SELECT movie_id, slot FROM poster_jobs WHERE due <= $1 ORDER BY due, movie_id, slot LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE poster_jobs j SET due = $3 FROM due WHERE j.movie_id = due.movie_id AND j.slot = due.slot
RETURNING j.movie_id, j.slot, j.url, j.tries`, now.Unix(), limit, now.Add(lease).Unix())
	if err != nil {
		return nil, translate(err, "claim poster jobs")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (catalog.PosterJob, error) {
		var j catalog.PosterJob
		var slot int16
		err := r.Scan(&j.MovieID, &slot, &j.URL, &j.Tries)
		j.Slot = int(slot)
		return j, err
	})
	return out, translate(err, "claim poster jobs")
}

// HasPosterImage implements catalog.PosterStore.
func (s *Store) HasPosterImage(ctx context.Context, key string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM poster_images WHERE key = $1)`, key).Scan(&ok)
	return ok, translate(err, "find poster")
}

// SavePosterImage implements catalog.PosterStore.
func (s *Store) SavePosterImage(ctx context.Context, img catalog.PosterImage) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO poster_images (key, url, jpeg, created) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO NOTHING`, img.Key, img.URL, img.JPEG, time.Now().Unix())
	return translate(err, "save poster")
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

// RetryPosterJob implements catalog.PosterStore.
func (s *Store) RetryPosterJob(ctx context.Context, j catalog.PosterJob, tries int, due time.Time) error {
	var err error
	if due.IsZero() {
		_, err = s.pool.Exec(ctx, `DELETE FROM poster_jobs WHERE movie_id = $1 AND slot = $2 AND url = $3`, j.MovieID, j.Slot, j.URL)
	} else {
		_, err = s.pool.Exec(ctx, `UPDATE poster_jobs SET tries = $1, due = $2 WHERE movie_id = $3 AND slot = $4 AND url = $5`,
			tries, due.Unix(), j.MovieID, j.Slot, j.URL)
	}
	return translate(err, "retry poster job")
}

// PosterImage implements catalog.PosterStore.
func (s *Store) PosterImage(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	err := s.pool.QueryRow(ctx, `SELECT jpeg FROM poster_images WHERE key = $1`, key).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, catalog.Errorf(catalog.ENOTFOUND, "no such poster")
	}
	return b, translate(err, "read poster")
}

// ResetPosterMirrors implements catalog.PosterStore.
func (s *Store) ResetPosterMirrors(ctx context.Context, base string) error {
	prefix := base + "/posters/"
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		for slot, col := range [...]string{"", "poster1", "poster2"} {
			if col == "" {
				continue
			}
			stale := col + `_mirror <> '' AND NOT starts_with(` + col + `_mirror, $1)`
			if base != "" {
				if _, err := tx.Exec(ctx, `INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, $2, `+col+`_url FROM movies
WHERE `+col+`_url <> '' AND `+stale+` ON CONFLICT (movie_id, slot) DO UPDATE SET due = 0`, prefix, slot); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `UPDATE movies SET `+col+`_mirror = '' WHERE `+stale, prefix); err != nil {
				return err
			}
		}
		return nil
	})
	return translate(err, "reset poster mirrors")
}
