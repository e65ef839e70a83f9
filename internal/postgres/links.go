package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// ClaimLinkChecks implements catalog.LinkStore. SKIP LOCKED lets the
// instances sharing the database claim at the same time without
// waiting for each other or taking the same movies.
func (s *Store) ClaimLinkChecks(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]catalog.LinkCheck, error) {
	return sqlstore.All(ctx, db{s: s}, "claim link checks", `WITH due AS (
    SELECT movie_id FROM link_checks WHERE due <= $1 ORDER BY due, movie_id LIMIT $2 FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE link_checks c SET due = $3 FROM due WHERE c.movie_id = due.movie_id RETURNING c.movie_id
)
SELECT m.id, m.episodes, m.link_health FROM claimed JOIN movies m ON m.id = claimed.movie_id ORDER BY m.id`,
		[]any{now.Unix(), limit, now.Add(lease).Unix()}, sqlstore.ScanLinkCheck)
}

// SaveLinkChecks implements catalog.LinkStore.
func (s *Store) SaveLinkChecks(ctx context.Context, results []catalog.LinkResult) error {
	const what = "save link checks"
	if len(results) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		for _, r := range results {
			text := catalog.HealthJSON(r.Health)
			b.Queue(`UPDATE movies SET link_health = $1 WHERE id = $2 AND link_health IS DISTINCT FROM $1`, text, r.MovieID)
			b.Queue(`UPDATE link_checks SET due = $1 WHERE movie_id = $2`, r.Due.Unix(), r.MovieID)
			b.Queue(`DELETE FROM dead_links WHERE movie_id = $1`, r.MovieID)
			for _, h := range r.Health {
				if h.Status == catalog.LinkDead {
					b.Queue(`INSERT INTO dead_links (movie_id, server, source) SELECT id, $2, $3 FROM movies WHERE id = $1
ON CONFLICT DO NOTHING`, r.MovieID, h.Server, catalog.SourceOfServer(h.Server))
				}
			}
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	return translate(err, what)
}
