package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// ClaimLinkChecks implements catalog.LinkStore.
func (s *Store) ClaimLinkChecks(ctx context.Context, now time.Time, lease time.Duration, limit int) (out []catalog.LinkCheck, err error) {
	const what = "claim link checks"
	err = db{s: s}.Tx(ctx, what, func(tx sqlstore.DB) error {
		out, err = sqlstore.All(ctx, tx, what, `SELECT c.movie_id, m.episodes, m.link_health
FROM link_checks c JOIN movies m ON m.id = c.movie_id
WHERE c.due <= $1 ORDER BY c.due, c.movie_id LIMIT $2`, []any{now.Unix(), limit}, sqlstore.ScanLinkCheck)
		for _, c := range out {
			if err == nil {
				_, err = tx.Exec(ctx, what, `UPDATE link_checks SET due = $1 WHERE movie_id = $2`, now.Add(lease).Unix(), c.MovieID)
			}
		}
		return err
	})
	return out, err
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
