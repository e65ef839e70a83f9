package sqlite

import (
	"context"
	"database/sql"
	"errors"
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

// HasPosterImage implements catalog.PosterStore.
func (s *Store) HasPosterImage(ctx context.Context, key string) (bool, error) {
	const what = "find poster"
	if err := s.takeReader(ctx, what); err != nil {
		return false, err
	}
	defer s.readSlots.Release(1)
	var n int
	err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM poster_images WHERE key = ?`, key).Scan(&n)
	return n > 0, translate(err, what)
}

// SavePosterImage implements catalog.PosterStore.
func (s *Store) SavePosterImage(ctx context.Context, img catalog.PosterImage) error {
	_, err := s.writer.ExecContext(ctx, `INSERT INTO poster_images (key, url, jpeg, created) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO NOTHING`, img.Key, img.URL, img.JPEG, now().Unix())
	return translate(err, "save poster")
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

// RetryPosterJob implements catalog.PosterStore.
func (s *Store) RetryPosterJob(ctx context.Context, j catalog.PosterJob, tries int, due time.Time) error {
	var err error
	if due.IsZero() {
		_, err = s.writer.ExecContext(ctx, `DELETE FROM poster_jobs WHERE movie_id = ? AND slot = ? AND url = ?`, j.MovieID, j.Slot, j.URL)
	} else {
		_, err = s.writer.ExecContext(ctx, `UPDATE poster_jobs SET tries = ?, due = ? WHERE movie_id = ? AND slot = ? AND url = ?`,
			tries, due.Unix(), j.MovieID, j.Slot, j.URL)
	}
	return translate(err, "retry poster job")
}

// PosterImage implements catalog.PosterStore.
func (s *Store) PosterImage(ctx context.Context, key string) ([]byte, error) {
	const what = "read poster"
	if err := s.takeReader(ctx, what); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	var b []byte
	err := s.reader.QueryRowContext(ctx, `SELECT jpeg FROM poster_images WHERE key = ?`, key).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, catalog.Errorf(catalog.ENOTFOUND, "no such poster")
	}
	return b, translate(err, what)
}

// ResetPosterMirrors implements catalog.PosterStore.
func (s *Store) ResetPosterMirrors(ctx context.Context, base string) error {
	const what = "reset poster mirrors"
	prefix := base + "/posters/"
	return s.writeTx(ctx, what, func(tx *sql.Tx) error {
		for slot, col := range [...]string{"", "poster1", "poster2"} {
			if col == "" {
				continue
			}
			stale := col + `_mirror <> '' AND substr(` + col + `_mirror, 1, ?) <> ?`
			if base != "" {
				if _, err := tx.ExecContext(ctx, `INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, ?, `+col+`_url FROM movies
WHERE `+col+`_url <> '' AND `+stale+` ON CONFLICT (movie_id, slot) DO UPDATE SET due = 0`, slot, len(prefix), prefix); err != nil {
					return translate(err, what)
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE movies SET `+col+`_mirror = '' WHERE `+stale, len(prefix), prefix); err != nil {
				return translate(err, what)
			}
		}
		return nil
	})
}
