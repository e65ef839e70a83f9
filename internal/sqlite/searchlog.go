package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"

	"catalog/internal/catalog"
)

var _ catalog.SearchLog = (*Store)(nil)

// searchSource is where one kind's search documents are read: the
// columns of a catalog.SearchDoc after the id (a clip has no change
// time, type, year, play groups, score or hits), then the values of the
// catalog.ValueFields as JSON arrays (catalog.SearchValues; a clip's
// actor and studio as one-item arrays), the table with its alias t and
// its join to the movies' types, the kind's version column in meta, and
// whether its records have play counts (catalog.SearchUpdate.Hits).
type searchSource struct {
	cols, table, join, version string
	hits                       bool
}

var searchTables = map[catalog.SearchKind]searchSource{
	catalog.SearchClips: {"t.title_fold, t.platform, 0, 0, '', 0, '', 0, 0, 0, 0, 0, " +
		"'[]', json_array(t.actor), '[]', json_array(t.studio), '[]', '[]'", "clips t", "", "clip_version", false},
	catalog.SearchMovies: {"t.name_fold, '', t.updated_at, coalesce(mt.id, 0), t.year, t.play_kinds, t.score, " +
		"t.hits, t.hits_day, t.hits_week, t.hits_month, t.hits_on, " +
		"t.categories_json, t.actor_json, t.director_json, t.studio_json, t.genre_json, t.country_json",
		"movies t", " LEFT JOIN movie_types mt ON mt.name = t.type_name", "movie_version", true},
}

// The changes after a version: the ids logged since, each either
// changed whole (a row with hits_only 0 among its rows: read with
// every column, NULL when gone) or in its play counts alone (read with
// those). The log's rows of one id are grouped, so an id is read once.
const (
	changedWhole = `SELECT id FROM search_log WHERE kind = ? AND version > ? GROUP BY id HAVING min(hits_only) = 0 LIMIT ?`
	changedHits  = `SELECT t.id, t.hits, t.hits_day, t.hits_week, t.hits_month, t.hits_on
FROM (SELECT id FROM search_log WHERE kind = ? AND version > ? GROUP BY id HAVING min(hits_only) = 1) l
JOIN movies t ON t.id = l.id`
)

// searchRow is the scan destinations of a searchSource's row.
type searchRow struct {
	d     catalog.SearchDoc
	lists [catalog.NumValueFields]string
}

func (r *searchRow) dests() []any {
	d := &r.d
	dest := []any{&d.ID, &d.Fold, &d.Group, &d.Changed, &d.Type, &d.Year, &d.Play, &d.Score,
		&d.Hits.Total, &d.Hits.Day, &d.Hits.Week, &d.Hits.Month, &d.Hits.On}
	for i := range r.lists {
		dest = append(dest, &r.lists[i])
	}
	return dest
}

// doc is the row's document.
func (r *searchRow) doc() catalog.SearchDoc {
	d := r.d
	d.Values = catalog.SearchValues(&r.lists)
	return d
}

// KindVersion reads one kind's data version on the connection kept for
// version reads (it never queues behind slow searches).
func (s *Store) KindVersion(ctx context.Context, kind catalog.SearchKind) (int64, error) {
	return s.readVersion(ctx, `SELECT `+searchTables[kind].version+` FROM meta WHERE id = 1`)
}

// SearchDocs walks every record of kind with the version, in one read
// transaction on a stream connection.
func (s *Store) SearchDocs(ctx context.Context, kind catalog.SearchKind, fn func(catalog.SearchDoc)) (int64, error) {
	t := searchTables[kind]
	var version int64
	err := s.streamTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT `+t.version+` FROM meta WHERE id = 1`).Scan(&version); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT t.id, `+t.cols+` FROM `+t.table+t.join+` ORDER BY t.id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var row searchRow
		dest := row.dests()
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			fn(row.doc())
		}
		return rows.Err()
	})
	return version, translate(err, "read search documents")
}

// SearchChanges reads the log after after, with the changed records'
// current documents or counts, in one read transaction.
func (s *Store) SearchChanges(ctx context.Context, kind catalog.SearchKind, after int64, max int) (catalog.SearchUpdate, error) {
	t := searchTables[kind]
	var u catalog.SearchUpdate
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT `+t.version+` FROM meta WHERE id = 1`).Scan(&u.Version); err != nil {
			return err
		}
		if u.Version <= after {
			return nil
		}
		var through int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(through), 0) FROM search_log_pruned WHERE kind = ?`, kind).Scan(&through); err != nil {
			return err
		}
		if after < through {
			return catalog.ErrSearchLogGap
		}
		rows, err := tx.QueryContext(ctx, `SELECT l.id, t.id, `+t.cols+`
FROM (`+changedWhole+`) l
LEFT JOIN `+t.table+` ON t.id = l.id`+t.join, kind, after, max+1)
		if err != nil {
			return err
		}
		if u.Docs, u.Gone, err = scanChanges(rows, max); err != nil || !t.hits {
			return err
		}
		u.Hits, err = scanHits(ctx, tx, kind, after)
		return err
	})
	if errors.Is(err, catalog.ErrSearchLogGap) {
		return catalog.SearchUpdate{}, err
	}
	if err != nil {
		return catalog.SearchUpdate{}, translate(err, "read search log")
	}
	return u, nil
}

// scanHits reads the counts of the movies changed in them alone.
func scanHits(ctx context.Context, tx *sql.Tx, kind catalog.SearchKind, after int64) ([]catalog.HitsOf, error) {
	rows, err := tx.QueryContext(ctx, changedHits, kind, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalog.HitsOf
	var h catalog.HitsOf
	dest := []any{&h.ID, &h.Hits.Total, &h.Hits.Day, &h.Hits.Week, &h.Hits.Month, (*int64)(&h.Hits.On)}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// scanChanges splits (log id, then a searchSource's row, NULL for a
// gone record) rows into docs and gone ids; more than max rows is a
// gap, and so is a log id 0 (a table emptied at once).
func scanChanges(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, max int) (docs []catalog.SearchDoc, gone []int64, err error) {
	defer rows.Close()
	var logID int64
	var id sql.NullInt64
	var fold, group, year, score sql.NullString
	var changed, typ, play sql.NullInt64
	var hits [5]sql.NullInt64 // total, day, week, month, on
	var lists [catalog.NumValueFields]sql.NullString
	dest := []any{&logID, &id, &fold, &group, &changed, &typ, &year, &play, &score,
		&hits[0], &hits[1], &hits[2], &hits[3], &hits[4]}
	for i := range lists {
		dest = append(dest, &lists[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, nil, err
		}
		if len(docs)+len(gone) >= max || logID == 0 {
			return nil, nil, catalog.ErrSearchLogGap
		}
		if !id.Valid {
			gone = append(gone, logID)
			continue
		}
		var values [catalog.NumValueFields]string
		for i, l := range lists {
			values[i] = l.String
		}
		docs = append(docs, catalog.SearchDoc{ID: logID, Fold: fold.String, Group: group.String,
			Changed: changed.Int64, Type: typ.Int64, Year: year.String, Play: play.Int64,
			Score: score.String, Values: catalog.SearchValues(&values),
			Hits: catalog.Hits{Total: hits[0].Int64, Day: hits[1].Int64, Week: hits[2].Int64, Month: hits[3].Int64,
				On: catalog.HitDay(hits[4].Int64)}})
	}
	return docs, gone, rows.Err()
}

// PruneSearchLog deletes the log rows of kind at or below through. The
// mark moves first (readers then treat those rows as gone), and the rows
// go in short transactions, so that a log grown by a million-row import
// does not hold the writer for seconds.
func (s *Store) PruneSearchLog(ctx context.Context, kind catalog.SearchKind, through int64) error {
	err := s.writeTx(ctx, "prune search log", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO search_log_pruned (kind, through) VALUES (?, ?)
ON CONFLICT (kind) DO UPDATE SET through = max(through, excluded.through)`, kind, through)
		return translate(err, "prune search log")
	})
	for err == nil {
		var n int64
		err = s.writeTx(ctx, "prune search log", func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `DELETE FROM search_log WHERE rowid IN
(SELECT rowid FROM search_log WHERE kind = ? AND version <= ? LIMIT 20000)`, kind, through)
			if err != nil {
				return translate(err, "prune search log")
			}
			n, err = res.RowsAffected()
			return translate(err, "prune search log")
		})
		if n < 20000 {
			break
		}
	}
	return err
}

// readTx runs fn in one read transaction on a reader connection.
func (s *Store) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := s.readSlots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.readSlots.Release(1)
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// ClipsByID returns the clips with the given ids, highest first: the
// page of a search answered by the in-process index.
func (s *Store) ClipsByID(ctx context.Context, ids []int64) ([]catalog.Clip, error) {
	if len(ids) == 0 {
		return []catalog.Clip{}, nil
	}
	return byID(ctx, s, "list clips", `SELECT `+clipColumns+` FROM clips`, "id", ids, scanClip, clipID)
}

func clipID(c *catalog.Clip) int64 { return c.ID }

// MoviesByID returns the movies with the given ids, highest first, with
// the columns fields needs (catalog.MovieFieldColumns): the page of a
// list answered by the in-process index.
func (s *Store) MoviesByID(ctx context.Context, ids []int64, fields catalog.FieldSet) ([]catalog.Movie, error) {
	if len(ids) == 0 {
		return []catalog.Movie{}, nil
	}
	cols := catalog.MovieFieldColumns(fields)
	return byID(ctx, s, "list movies", `SELECT id`+commaColumns(cols)+` FROM movies`, "id", ids,
		func(row scanner, m *catalog.Movie) error {
			return row.Scan(catalog.AppendDests(append(make([]any, 0, len(cols)+1), &m.ID), m, cols)...)
		}, movieID)
}

func movieID(m *catalog.Movie) int64 { return m.ID }

// commaColumns is ", " and the names of cols, or "" when there are none.
func commaColumns(cols []catalog.MovieColumn) string {
	if len(cols) == 0 {
		return ""
	}
	return ", " + catalog.ColumnNames(cols, "")
}

// Identity is a random number kept in the database file's header
// (PRAGMA user_version, which nothing else uses), set the first time it
// is asked for. A copy of the file keeps it; catalog backup gives its
// copy a new one, so that a restored backup is another database.
func (s *Store) Identity(ctx context.Context) (string, error) {
	var id int64
	err := s.writeTx(ctx, "database identity", func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&id); err != nil || id != 0 {
			return translate(err, "database identity")
		}
		id = newIdentity()
		_, err := tx.ExecContext(ctx, `PRAGMA user_version = `+strconv.FormatInt(id, 10))
		return translate(err, "database identity")
	})
	return "sqlite:" + strconv.FormatInt(id, 10), err
}

// newIdentity is a random positive 31-bit number (user_version is a
// signed 32-bit integer; 0 means none).
func newIdentity() int64 { return 1 + rand.Int64N(math.MaxInt32) }
