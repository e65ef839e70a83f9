package sqlite

import (
	"context"
	"database/sql"

	"catalog/internal/catalog"
)

// addHits adds one movie's hits of the day ?3 (contract 12): each
// period's count grows when the stored day lies in the same period
// (?3, its week's Monday ?4, its month's first day ?5), else starts at
// the count. The columns are only ever added to, never written back.
const addHits = `UPDATE movies SET hits = hits + ?2,
    hits_day = CASE WHEN hits_on >= ?3 THEN hits_day + ?2 ELSE ?2 END,
    hits_week = CASE WHEN hits_on >= ?4 THEN hits_week + ?2 ELSE ?2 END,
    hits_month = CASE WHEN hits_on >= ?5 THEN hits_month + ?2 ELSE ?2 END,
    hits_on = max(hits_on, ?3)
WHERE id = ?1`

// AddHits implements catalog.HitStore in one write transaction.
func (s *Store) AddHits(ctx context.Context, day catalog.HitDay, counts []catalog.HitCount) error {
	if len(counts) == 0 {
		return nil
	}
	const what = "add hits"
	return s.writeTx(ctx, what, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, addHits)
		if err != nil {
			return translate(err, what)
		}
		defer st.Close()
		for _, c := range counts {
			if _, err := st.ExecContext(ctx, c.ID, c.N, int64(day), int64(day.WeekStart()), int64(day.MonthStart())); err != nil {
				return translate(err, what)
			}
		}
		return nil
	})
}
