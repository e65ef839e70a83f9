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

// ReportLink implements catalog.LinkStore.
func (s *Store) ReportLink(ctx context.Context, movieID int64) error {
	const what = "report link"
	res, err := s.writer.ExecContext(ctx, `INSERT INTO link_checks (movie_id, due) SELECT id, -1 FROM movies WHERE id = ?
ON CONFLICT (movie_id) DO UPDATE SET due = -1`, movieID)
	if err != nil {
		return translate(err, what)
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err, what)
	} else if n == 0 {
		return catalog.Errorf(catalog.ENOTFOUND, "movie %d not found", movieID)
	}
	return nil
}

// DeadLinks implements catalog.LinkStore.
func (s *Store) DeadLinks(ctx context.Context, limit int) ([]catalog.LinkServer, error) {
	const what = "list dead links"
	if err := s.takeReader(ctx, what); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	rows, err := s.reader.QueryContext(ctx, `SELECT d.movie_id, m.name, d.server, m.link_health
FROM dead_links d JOIN movies m ON m.id = d.movie_id ORDER BY d.source, d.movie_id, d.server LIMIT ?`, limit)
	if err != nil {
		return nil, translate(err, what)
	}
	defer rows.Close()
	var out []catalog.LinkServer
	for rows.Next() {
		var ls catalog.LinkServer
		var server, health string
		if err := rows.Scan(&ls.MovieID, &ls.MovieName, &server, &health); err != nil {
			return nil, translate(err, what)
		}
		out = append(out, catalog.DeadServer(ls, server, health))
	}
	return out, translate(rows.Err(), what)
}

// DeadLinkCounts implements catalog.LinkStore.
func (s *Store) DeadLinkCounts(ctx context.Context) (map[string]int64, error) {
	const what = "count dead links"
	if err := s.takeReader(ctx, what); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	rows, err := s.reader.QueryContext(ctx, `SELECT source, count(*) FROM dead_links GROUP BY source`)
	if err != nil {
		return nil, translate(err, what)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var source string
		var n int64
		if err := rows.Scan(&source, &n); err != nil {
			return nil, translate(err, what)
		}
		out[source] = n
	}
	return out, translate(rows.Err(), what)
}
