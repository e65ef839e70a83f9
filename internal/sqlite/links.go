package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
)

// ClaimLinkChecks implements catalog.LinkStore.
func (s *Store) ClaimLinkChecks(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]catalog.LinkCheck, error) {
	const what = "claim link checks"
	var out []catalog.LinkCheck
	err := s.writeTx(ctx, what, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT c.movie_id, m.episodes, m.link_health
FROM link_checks c JOIN movies m ON m.id = c.movie_id
WHERE c.due <= ? ORDER BY c.due, c.movie_id LIMIT ?`, now.Unix(), limit)
		if err != nil {
			return translate(err, what)
		}
		out, err = scanLinkChecks(rows)
		if err != nil {
			return translate(err, what)
		}
		until := now.Add(lease).Unix()
		for _, c := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE link_checks SET due = ? WHERE movie_id = ?`, until, c.MovieID); err != nil {
				return translate(err, what)
			}
		}
		return nil
	})
	return out, err
}

// scanLinkChecks reads rows of id, episodes and link health and closes
// them.
func scanLinkChecks(rows *sql.Rows) ([]catalog.LinkCheck, error) {
	defer rows.Close()
	var out []catalog.LinkCheck
	for rows.Next() {
		var c catalog.LinkCheck
		var episodes, health string
		if err := rows.Scan(&c.MovieID, &episodes, &health); err != nil {
			return nil, err
		}
		var err error
		if c.Episodes, err = catalog.ParseEpisodes([]byte(episodes)); err != nil {
			return nil, err
		}
		if c.Health, err = catalog.ParseHealth(health); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SaveLinkChecks implements catalog.LinkStore.
func (s *Store) SaveLinkChecks(ctx context.Context, results []catalog.LinkResult) error {
	const what = "save link checks"
	if len(results) == 0 {
		return nil
	}
	return s.writeTx(ctx, what, func(tx *sql.Tx) error {
		for _, r := range results {
			text := catalog.HealthJSON(r.Health)
			if _, err := tx.ExecContext(ctx, `UPDATE movies SET link_health = ? WHERE id = ? AND link_health IS NOT ?`,
				text, r.MovieID, text); err != nil {
				return translate(err, what)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE link_checks SET due = ? WHERE movie_id = ?`, r.Due.Unix(), r.MovieID); err != nil {
				return translate(err, what)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM dead_links WHERE movie_id = ?`, r.MovieID); err != nil {
				return translate(err, what)
			}
			for _, h := range r.Health {
				if h.Status != catalog.LinkDead {
					continue
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO dead_links (movie_id, server, source)
SELECT id, ?, ? FROM movies WHERE id = ? ON CONFLICT DO NOTHING`,
					h.Server, catalog.SourceOfServer(h.Server), r.MovieID); err != nil {
					return translate(err, what)
				}
			}
		}
		return nil
	})
}
