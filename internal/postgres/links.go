package postgres

import (
	"context"
	"time"

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
