package sqlite

import (
	"context"
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
