package sqlstore

import (
	"context"
	"time"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// ScanLinkCheck scans a movie's id, episodes and link health, the rows
// ClaimLinkChecks returns.
func ScanLinkCheck(row Scanner, c *catalog.LinkCheck) error {
	var episodes, health string
	err := row.Scan(&c.MovieID, &episodes, &health)
	if err == nil {
		c.Episodes, err = catalog.ParseEpisodes([]byte(episodes))
	}
	if err == nil {
		c.Health, err = catalog.ParseHealth(health)
	}
	return err
}

// ScanPosterJob scans a job's movie id, slot, URL and tries, the rows
// ClaimPosterJobs returns.
func ScanPosterJob(row Scanner, j *catalog.PosterJob) error {
	return row.Scan(&j.MovieID, &j.Slot, &j.URL, &j.Tries)
}

// SaveLinkChecks implements catalog.LinkStore.
func (m Methods) SaveLinkChecks(ctx context.Context, results []catalog.LinkResult) error {
	if len(results) == 0 {
		return nil
	}
	var writes []Stmt
	for _, r := range results {
		writes = append(writes,
			Stmt{`UPDATE movies SET link_health = $1 WHERE id = $2 AND link_health IS DISTINCT FROM $1`, []any{catalog.HealthJSON(r.Health), r.MovieID}},
			Stmt{`UPDATE link_checks SET due = $1 WHERE movie_id = $2`, []any{r.Due.Unix(), r.MovieID}},
			Stmt{`DELETE FROM dead_links WHERE movie_id = $1`, []any{r.MovieID}})
		for _, h := range r.Health {
			if h.Status == catalog.LinkDead {
				writes = append(writes, Stmt{`INSERT INTO dead_links (movie_id, server, source) SELECT id, $2, $3 FROM movies WHERE id = $1
ON CONFLICT DO NOTHING`, []any{r.MovieID, h.Server, catalog.SourceOfServer(h.Server)}})
			}
		}
	}
	return m.DB.Batch(ctx, "save link checks", writes)
}

// ReportLink implements catalog.LinkStore.
func (m Methods) ReportLink(ctx context.Context, movieID int64) error {
	n, err := m.DB.Exec(ctx, "report link", `INSERT INTO link_checks (movie_id, due) SELECT id, -1 FROM movies WHERE id = $1
ON CONFLICT (movie_id) DO UPDATE SET due = -1`, movieID)
	if err == nil && n == 0 {
		return catalog.Errorf(catalog.ENOTFOUND, "movie %d not found", movieID)
	}
	return err
}

// DeadLinks implements catalog.LinkStore.
func (m Methods) DeadLinks(ctx context.Context, limit int) ([]catalog.LinkServer, error) {
	return All(ctx, m.DB, "list dead links", `SELECT d.movie_id, m.name, d.server, m.link_health
FROM dead_links d JOIN movies m ON m.id = d.movie_id ORDER BY d.source, d.movie_id, d.server LIMIT $1`, []any{limit},
		func(row Scanner, ls *catalog.LinkServer) error {
			var server, health string
			err := row.Scan(&ls.MovieID, &ls.MovieName, &server, &health)
			*ls = catalog.DeadServer(*ls, server, health)
			return err
		})
}

// DeadLinkCounts implements catalog.LinkStore.
func (m Methods) DeadLinkCounts(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	var source string
	var n int64
	err := m.DB.Query(ctx, "count dead links", `SELECT source, count(*) FROM dead_links GROUP BY source`, nil,
		func(row Scanner) error {
			err := row.Scan(&source, &n)
			out[source] = n
			return err
		})
	return out, err
}

// HasPosterImage implements catalog.PosterStore.
func (m Methods) HasPosterImage(ctx context.Context, key string) (bool, error) {
	var ok bool
	err := m.one(ctx, "find poster", "poster", `SELECT EXISTS (SELECT 1 FROM poster_images WHERE key = $1)`, []any{key}, &ok)
	return ok, err
}

// SavePosterImage implements catalog.PosterStore.
func (m Methods) SavePosterImage(ctx context.Context, img catalog.PosterImage) error {
	_, err := m.DB.Exec(ctx, "save poster", `INSERT INTO poster_images (key, url, jpeg, created) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO NOTHING`, img.Key, img.URL, img.JPEG, time.Now().Unix())
	return err
}

// RetryPosterJob implements catalog.PosterStore.
func (m Methods) RetryPosterJob(ctx context.Context, j catalog.PosterJob, tries int, due time.Time) error {
	var err error
	if due.IsZero() {
		_, err = m.DB.Exec(ctx, "retry poster job", `DELETE FROM poster_jobs WHERE movie_id = $1 AND slot = $2 AND url = $3`, j.MovieID, j.Slot, j.URL)
	} else {
		_, err = m.DB.Exec(ctx, "retry poster job", `UPDATE poster_jobs SET tries = $1, due = $2 WHERE movie_id = $3 AND slot = $4 AND url = $5`,
			tries, due.Unix(), j.MovieID, j.Slot, j.URL)
	}
	return err
}

// FinishPosterJobs implements catalog.PosterStore.
func (m Methods) FinishPosterJobs(ctx context.Context, done []catalog.PosterDone) error {
	if len(done) == 0 {
		return nil
	}
	var writes []Stmt
	for _, d := range done {
		set := `UPDATE movies SET poster1_mirror = $1 WHERE id = $2 AND poster1_url = $3 AND poster1_mirror <> $1`
		if d.Job.Slot == 2 {
			set = `UPDATE movies SET poster2_mirror = $1 WHERE id = $2 AND poster2_url = $3 AND poster2_mirror <> $1`
		}
		writes = append(writes, Stmt{set, []any{d.Mirror, d.Job.MovieID, d.Job.URL}},
			Stmt{`DELETE FROM poster_jobs WHERE movie_id = $1 AND slot = $2 AND url = $3`, []any{d.Job.MovieID, d.Job.Slot, d.Job.URL}})
	}
	return m.DB.Batch(ctx, "finish poster jobs", writes)
}

// PosterImage implements catalog.PosterStore.
func (m Methods) PosterImage(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	err := m.one(ctx, "read poster", "poster", `SELECT jpeg FROM poster_images WHERE key = $1`, []any{key}, &b)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return nil, catalog.Errorf(catalog.ENOTFOUND, "no such poster")
	}
	return b, err
}

// ResetPosterMirrors implements catalog.PosterStore.
func (m Methods) ResetPosterMirrors(ctx context.Context, base string) error {
	prefix := base + "/posters/"
	n := utf8.RuneCountInString(prefix) // substr counts characters
	return m.DB.Tx(ctx, "reset poster mirrors", func(tx DB) error {
		for slot, col := range [...]string{"", "poster1", "poster2"} {
			if col == "" {
				continue
			}
			stale := col + `_mirror <> '' AND substr(` + col + `_mirror, 1, $2) <> $1`
			if base != "" {
				if _, err := tx.Exec(ctx, "reset poster mirrors", `INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, $3, `+col+`_url FROM movies
WHERE `+col+`_url <> '' AND `+stale+` ON CONFLICT (movie_id, slot) DO UPDATE SET due = 0`, prefix, n, slot); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, "reset poster mirrors", `UPDATE movies SET `+col+`_mirror = '' WHERE `+stale, prefix, n); err != nil {
				return err
			}
		}
		return nil
	})
}
