package postgres

import (
	"context"
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

var _ catalog.SearchLog = (*Store)(nil)

// searchSource is where one kind's search documents are read: the
// columns of a catalog.SearchDoc after the id (a clip has no change
// time, type, year, play groups, score or hits), the table with its alias t and
// its join to the movies' types, the kind's version column in meta, and
// whether its records have play counts (catalog.SearchUpdate.Hits).
type searchSource struct {
	cols, table, join, version string
	hits                       bool
}

var searchTables = map[catalog.SearchKind]searchSource{
	catalog.SearchClips: {"t.title_fold, t.platform, 0::bigint, 0::bigint, ''::text, 0::bigint, ''::text, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, " +
		"'[]'::text, json_build_array(t.actor)::text, '[]'::text, json_build_array(t.studio)::text, '[]'::text, '[]'::text", "clips t", "", "clip_version", false},
	catalog.SearchMovies: {"t.name_fold, ''::text, extract(epoch FROM t.updated_at)::bigint, coalesce(mt.id, 0), t.year, t.play_kinds::bigint, t.score, " +
		"t.hits, t.hits_day, t.hits_week, t.hits_month, t.hits_on, " +
		"t.categories_json, t.actor_json, t.director_json, t.studio_json, t.genre_json, t.country_json",
		"movies t", " LEFT JOIN movie_types mt ON mt.name = t.type_name", "movie_version", true},
}

// The changes after a version: the ids logged since, each either
// changed whole (a row with hits_only false among its rows: read with
// every column, missing when gone) or in its play counts alone (read
// with those). The log's rows of one id are grouped, so an id is read
// once. The ids are read first and the records then by key (= ANY), in
// two statements: a join of the log to the table leaves the plan to the
// planner's estimate of the log after a version, and a bulk import's
// rows in the statistics can make it scan the whole table for a few
// changed rows, which every list waits for (TestSearchChangesReadByKey).
const (
	changedWhole = `SELECT id FROM search_log WHERE kind = $1 AND version > $2 GROUP BY id HAVING NOT bool_and(hits_only) LIMIT $3`
	changedHits  = `SELECT id FROM search_log WHERE kind = $1 AND version > $2 GROUP BY id HAVING bool_and(hits_only)`
	hitsOfIDs    = `SELECT t.id, t.hits, t.hits_day, t.hits_week, t.hits_month, t.hits_on FROM movies t WHERE t.id = ANY($1)`
)

// docsOfIDs reads the documents of the ids in $1.
func (t searchSource) docsOfIDs() string {
	return `SELECT t.id, ` + t.cols + ` FROM ` + t.table + t.join + ` WHERE t.id = ANY($1)`
}

// KindVersion reads one kind's data version.
func (s *Store) KindVersion(ctx context.Context, kind catalog.SearchKind) (int64, error) {
	var v int64
	err := s.pool.QueryRow(ctx, `SELECT `+searchTables[kind].version+` FROM meta`).Scan(&v)
	return v, translate(err, "data version")
}

// snapshotRead runs fn in one repeatable-read, read-only transaction:
// the version and the rows it reads agree.
func (s *Store) snapshotRead(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

// SearchDocs walks every record of kind with the version, in one
// snapshot on a stream connection.
func (s *Store) SearchDocs(ctx context.Context, kind catalog.SearchKind, fn func(catalog.SearchDoc)) (int64, error) {
	t := searchTables[kind]
	var version int64
	err := s.streamTx(ctx, pgx.RepeatableRead, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT `+t.version+` FROM meta`).Scan(&version); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT t.id, `+t.cols+` FROM `+t.table+t.join+` ORDER BY t.id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var d catalog.SearchDoc
		var lists [catalog.NumValueFields]string
		dest := []any{&d.ID, &d.Fold, &d.Group, &d.Changed, &d.Type, &d.Year, &d.Play, &d.Score,
			&d.Hits.Total, &d.Hits.Day, &d.Hits.Week, &d.Hits.Month, &d.Hits.On}
		for i := range lists {
			dest = append(dest, &lists[i])
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			d.Values = catalog.SearchValues(&lists)
			fn(d)
		}
		return rows.Err()
	})
	return version, translate(err, "read search documents")
}

// SearchChanges reads the log after after, with the changed records'
// current documents or counts, in one snapshot.
func (s *Store) SearchChanges(ctx context.Context, kind catalog.SearchKind, after int64, max int) (catalog.SearchUpdate, error) {
	t := searchTables[kind]
	var u catalog.SearchUpdate
	err := s.snapshotRead(ctx, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `SELECT `+t.version+` FROM meta`).Scan(&u.Version); err != nil {
			return err
		}
		if u.Version <= after {
			return nil
		}
		var through int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(through), 0) FROM search_log_pruned WHERE kind = $1`, kind).Scan(&through); err != nil {
			return err
		}
		if after < through {
			return catalog.ErrSearchLogGap
		}
		ids, err := queryIDs(ctx, tx, changedWhole, kind, after, max+1)
		if err != nil {
			return err
		}
		if len(ids) > max || slices.Contains(ids, 0) {
			return catalog.ErrSearchLogGap
		}
		rows, err := tx.Query(ctx, t.docsOfIDs(), ids)
		if err != nil {
			return err
		}
		defer rows.Close()
		var d catalog.SearchDoc
		var lists [catalog.NumValueFields]string
		dest := []any{&d.ID, &d.Fold, &d.Group, &d.Changed, &d.Type, &d.Year, &d.Play, &d.Score,
			&d.Hits.Total, &d.Hits.Day, &d.Hits.Week, &d.Hits.Month, &d.Hits.On}
		for i := range lists {
			dest = append(dest, &lists[i])
		}
		found := make(map[int64]bool, len(ids))
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			d.Values = catalog.SearchValues(&lists)
			u.Docs = append(u.Docs, d)
			found[d.ID] = true
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			if !found[id] {
				u.Gone = append(u.Gone, id)
			}
		}
		if !t.hits {
			return nil
		}
		if ids, err = queryIDs(ctx, tx, changedHits, kind, after); err != nil || len(ids) == 0 {
			return err
		}
		counts, err := tx.Query(ctx, hitsOfIDs, ids)
		if err != nil {
			return err
		}
		u.Hits, err = pgx.CollectRows(counts, func(row pgx.CollectableRow) (catalog.HitsOf, error) {
			var h catalog.HitsOf
			err := row.Scan(&h.ID, &h.Hits.Total, &h.Hits.Day, &h.Hits.Week, &h.Hits.Month, (*int64)(&h.Hits.On))
			return h, err
		})
		return err
	})
	if errors.Is(err, catalog.ErrSearchLogGap) {
		return catalog.SearchUpdate{}, catalog.ErrSearchLogGap
	}
	if err != nil {
		return catalog.SearchUpdate{}, translate(err, "read search log")
	}
	return u, nil
}

// queryIDs runs a query of one id column.
func queryIDs(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// PruneSearchLog deletes the log rows of kind at or below through.
func (s *Store) PruneSearchLog(ctx context.Context, kind catalog.SearchKind, through int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO search_log_pruned AS p (kind, through) VALUES ($1, $2)
ON CONFLICT (kind) DO UPDATE SET through = greatest(p.through, excluded.through)`, kind, through); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM search_log WHERE kind = $1 AND version <= $2`, kind, through)
		return err
	})
	return translate(err, "prune search log")
}

// ClipsByID returns the clips with the given ids, highest first: the
// page of a search answered by the in-process index.
func (s *Store) ClipsByID(ctx context.Context, ids []int64) ([]catalog.Clip, error) {
	return byID(ctx, s, "list clips", `SELECT `+clipColumns+` FROM clips`, "id", ids, scanClip,
		func(c *catalog.Clip) int64 { return c.ID })
}

// MoviesByID returns the movies with the given ids, highest first, with
// the columns fields needs (catalog.MovieFieldColumns): the page of a
// list answered by the in-process index.
func (s *Store) MoviesByID(ctx context.Context, ids []int64, fields catalog.FieldSet) ([]catalog.Movie, error) {
	cols := catalog.MovieFieldColumns(fields)
	query := `SELECT id`
	if len(cols) > 0 {
		query += `, ` + catalog.ColumnNames(cols, "")
	}
	return byID(ctx, s, "list movies", query+` FROM movies`, "id", ids,
		func(row pgx.Row, m *catalog.Movie) error {
			return row.Scan(catalog.AppendDests(append(make([]any, 0, len(cols)+1), &m.ID), m, cols)...)
		}, func(m *catalog.Movie) int64 { return m.ID })
}

// Identity names the database by its cluster (the system identifier
// set by initdb, which pg_dump does not carry), its oid in the cluster
// and the time its schema was first migrated (to the microsecond): a
// database dropped and created again, or restored elsewhere, is
// another.
func (s *Store) Identity(ctx context.Context) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT 'postgres:' || coalesce((SELECT system_identifier::text FROM pg_control_system()), '') || ':' ||
    (SELECT oid::text FROM pg_database WHERE datname = current_database()) || ':' ||
    (SELECT coalesce(min(tstamp)::text, '') FROM goose_db_version)`).Scan(&id)
	return id, translate(err, "read database identity")
}
