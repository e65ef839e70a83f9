package sqlite

import (
	"context"
	"database/sql"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// The clip statements' columns, from the field table
// (catalog.ClipColumns): every written one and every read one.
var (
	clipDataColumns = catalog.ClipColumns()
	clipReadColumns = catalog.ReadColumns(clipDataColumns)
	clipColumns     = `id, ` + catalog.ColumnNames(clipReadColumns, "") + `, created_at`
)

type scanner interface{ Scan(dest ...any) error }

func scanClip(row scanner, c *catalog.Clip) error {
	var created int64
	dest := catalog.AppendDests(append(make([]any, 0, len(clipReadColumns)+2), &c.ID), c, clipReadColumns)
	if err := row.Scan(append(dest, &created)...); err != nil {
		return err
	}
	c.CreatedAt = unixTime(created)
	return nil
}

// appendClipValues appends the stored values of c (clipDataColumns)
// and then created.
func appendClipValues(v []any, c *catalog.Clip, created time.Time) []any {
	return append(catalog.AppendValues(v, c, clipDataColumns), created.Unix())
}

// search is the part of a list query that a text search adds.
type search struct {
	from    string   // the FROM clause
	order   string   // the id column to order by
	conds   []string // WHERE conditions, ANDed
	args    []any    // their parameters
	ftsOnly bool     // the MATCH alone decides (no instr condition)
}

// newSearch builds the search over table (clips or movies) and its fold
// column for folded terms. Terms of at least catalog.MinIndexedTerm runes
// go into one FTS5 MATCH, each as a quoted phrase: with the trigram
// tokenizer a phrase is exactly a substring, and quoting makes every
// character literal. Shorter terms cannot use trigrams and are checked
// with instr(), which (unlike LIKE) treats % _ and \ literally. With
// terms in the MATCH the rows come from the FTS index in descending
// rowid order, so a first page stops after a page of matches.
func newSearch(table, foldCol string, terms []string) search {
	s := search{from: table, order: table + ".id"}
	var phrases []string
	for _, t := range terms {
		if utf8.RuneCountInString(t) >= catalog.MinIndexedTerm {
			phrases = append(phrases, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
		}
	}
	if len(phrases) > 0 {
		fts := table + "_fts"
		s.from = fts + " JOIN " + table + " ON " + table + ".id = " + fts + ".rowid"
		s.order = fts + ".rowid"
		s.conds = append(s.conds, fts+" MATCH ?")
		s.args = append(s.args, strings.Join(phrases, " "))
		s.ftsOnly = true
	}
	for _, t := range terms {
		if utf8.RuneCountInString(t) < catalog.MinIndexedTerm {
			s.conds = append(s.conds, "instr("+table+"."+foldCol+", ?) > 0")
			s.args = append(s.args, t)
			s.ftsOnly = false
		}
	}
	return s
}

// countQuery counts the matches. When the MATCH alone decides and no
// other filter applies, the FTS index counts without reading the rows.
func (s search) countQuery(table string, otherFilters bool) string {
	if s.ftsOnly && !otherFilters {
		return "SELECT count(*) FROM " + table + "_fts WHERE " + s.conds[0]
	}
	return "SELECT count(*) FROM " + s.from + where(s.conds)
}

// qualified prefixes each of the comma-separated columns with table.
func qualified(table, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = table + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

func where(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// ListClips returns one page, newest first, and the exact total. Without
// search terms the total comes from the trigger-kept clip_counts table.
func (s *Store) ListClips(ctx context.Context, f catalog.ClipFilter) ([]catalog.Clip, int64, error) {
	q := newSearch("clips", "title_fold", f.Terms)
	if f.Platform != "" {
		q.conds = append(q.conds, `clips.platform = ?`)
		q.args = append(q.args, f.Platform)
	}

	cache := len(f.Terms) <= maxCachedTerms
	count := func() (int64, error) {
		switch {
		case len(f.Terms) > 0:
			return s.count(ctx, q.countQuery("clips", f.Platform != ""), q.args, cache)
		case f.Platform != "":
			return s.count(ctx, `SELECT coalesce(sum(n), 0) FROM clip_counts WHERE platform = ?`, q.args, true)
		}
		return s.count(ctx, `SELECT coalesce(sum(n), 0) FROM clip_counts`, nil, true)
	}
	query := `SELECT ` + qualified("clips", clipColumns) + ` FROM ` + q.from + where(q.conds) +
		` ORDER BY ` + q.order + ` DESC LIMIT ? OFFSET ?`
	return countAndPage(ctx, s, count, len(f.Terms) == 0, query, q.args, cache, f.Paging, scanClip, "clips")
}

// maxCachedTerms bounds the query shapes kept prepared: the text of a
// search query depends on its number of terms, and a client choosing
// that number must not grow the statement cache without limit.
const maxCachedTerms = 4

// query runs a read, through a cached prepared statement when cache is
// set.
func (s *Store) query(ctx context.Context, query string, args []any, cache bool) (*sql.Rows, error) {
	if !cache {
		return s.reader.QueryContext(ctx, query, args...)
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (s *Store) count(ctx context.Context, query string, args []any, cache bool) (int64, error) {
	var n int64
	if !cache {
		err := s.reader.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		return 0, err
	}
	err = st.QueryRowContext(ctx, args...).Scan(&n)
	return n, err
}

// GetClip returns ENOTFOUND when no clip has the id.
func (s *Store) GetClip(ctx context.Context, id int64) (catalog.Clip, error) {
	ctx = pointRead(ctx)
	var c catalog.Clip
	st, err := s.prepared(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = ?`)
	if err != nil {
		return c, err
	}
	if err := scanClip(st.QueryRowContext(ctx, id), &c); err != nil {
		if err == sql.ErrNoRows {
			return c, notFound("clip")
		}
		return c, translate(err, "get clip")
	}
	return c, nil
}

var insertClip = `INSERT INTO clips (` + catalog.ColumnNames(clipDataColumns, "") + `, created_at)
VALUES (?` + strings.Repeat(`, ?`, len(clipDataColumns)) + `)`

// CreateClip assigns c.ID and c.CreatedAt.
func (s *Store) CreateClip(ctx context.Context, c *catalog.Clip) error {
	created := now()
	var id int64
	err := s.writeTx(ctx, "create clip", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, insertClip, appendClipValues(nil, c, created)...)
		if err != nil {
			return translate(err, "create clip")
		}
		if id, err = res.LastInsertId(); err != nil {
			return translate(err, "create clip")
		}
		if err := catalog.CheckAssignedID("clip", id); err != nil {
			return err
		}
		return flushPending(ctx, tx, "clips", "title_fold")
	})
	if err != nil {
		return err
	}
	c.ID, c.CreatedAt = id, created
	return nil
}

// UpdateClip loads, changes and saves one clip in a write transaction;
// id and created_at cannot be changed by fn.
func (s *Store) UpdateClip(ctx context.Context, id int64, fn func(*catalog.Clip) error) (catalog.Clip, error) {
	var c catalog.Clip
	err := s.writeTx(ctx, "update clip", func(tx *sql.Tx) error {
		if err := scanClip(tx.QueryRowContext(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = ?`, id), &c); err != nil {
			if err == sql.ErrNoRows {
				return notFound("clip")
			}
			return translate(err, "update clip")
		}
		keepID, keepCreated := c.ID, c.CreatedAt
		if err := fn(&c); err != nil {
			return err
		}
		c.ID, c.CreatedAt = keepID, keepCreated
		_, err := tx.ExecContext(ctx, updateClip, append(catalog.AppendValues(nil, &c, clipDataColumns), c.ID)...)
		return translate(err, "update clip")
	})
	if err != nil {
		return catalog.Clip{}, err
	}
	return c, nil
}

// DeleteClip returns ENOTFOUND when no clip has the id.
func (s *Store) DeleteClip(ctx context.Context, id int64) error {
	res, err := s.writer.ExecContext(ctx, `DELETE FROM clips WHERE id = ?`, id)
	if err != nil {
		return translate(err, "delete clip")
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err, "delete clip")
	} else if n == 0 {
		return notFound("clip")
	}
	return nil
}

// ImportClips inserts clips in one transaction. A clip with ID set
// replaces the clip with that id (an upsert, so the triggers keep the
// index and counts right); a zero CreatedAt means now. The assigned ID
// and CreatedAt are written back into the slice. Runs of clips without
// an ID go in with multi-row INSERTs, given the ids SQLite would have
// assigned them one at a time.
func (s *Store) ImportClips(ctx context.Context, clips []catalog.Clip) error {
	if len(clips) == 0 {
		return nil
	}
	for i := range clips {
		if err := catalog.CheckRecordID("clip", clips[i].ID); err != nil {
			return err
		}
	}
	created := now()
	return s.bulkTx(ctx, "import clips", func(tx *sql.Tx) error {
		w := &clipWriter{txStmts: txStmts{tx: tx, what: "import clips"}}
		defer w.close()
		start := 0
		for i := range clips {
			c := &clips[i]
			c.CreatedAt = catalog.StoredTimeOr(c.CreatedAt, created)
			if c.ID > 0 {
				if err := w.insertNew(ctx, clips[start:i]); err != nil {
					return err
				}
				if err := w.replace(ctx, c); err != nil {
					return err
				}
				start = i + 1
			}
		}
		if err := w.insertNew(ctx, clips[start:]); err != nil {
			return err
		}
		return flushPending(ctx, tx, "clips", "title_fold")
	})
}

// The clip write statements, from the field table: values are bound as
// (id,) appendClipValues.
var updateClip, insertClipHead, insertClipRow, replaceClip = func() (update, head, row, replace string) {
	var set, excluded []string
	for _, c := range clipDataColumns {
		set = append(set, c.Name+` = ?`)
		excluded = append(excluded, c.Name+` = excluded.`+c.Name)
	}
	update = `UPDATE clips SET ` + strings.Join(set, `, `) + ` WHERE id = ?`
	head = `INSERT INTO clips (id, ` + catalog.ColumnNames(clipDataColumns, "") + `, created_at)
VALUES `
	row = `(?` + strings.Repeat(`, ?`, len(clipDataColumns)+1) + `)`
	replace = head + row + `
ON CONFLICT (id) DO UPDATE SET ` + strings.Join(excluded, `, `) + `, created_at = excluded.created_at`
	return update, head, row, replace
}()

// clipInsertRows is how many clips one bulk INSERT writes (see
// movieInsertRows).
const clipInsertRows = 50

// clipWriter holds one import transaction's statements.
type clipWriter struct {
	txStmts
	args []any // reused bulk INSERT arguments
}

// replace upserts c, which has an ID.
func (w *clipWriter) replace(ctx context.Context, c *catalog.Clip) error {
	st, err := w.stmt(ctx, replaceClip)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, appendClipValues([]any{c.ID}, c, c.CreatedAt)...)
	return translate(err, "import clips")
}

// insertNew inserts clips that have no ID. A lone clip lets SQLite
// assign its id; more get the ids SQLite would have assigned them, in
// order, so that they can share statements.
func (w *clipWriter) insertNew(ctx context.Context, clips []catalog.Clip) error {
	if len(clips) == 0 {
		return nil
	}
	var last int64
	if len(clips) > 1 {
		var err error
		if last, err = lastID(ctx, w.tx, "clips"); err != nil {
			return translate(err, "import clips")
		}
	}
	if len(clips) == 1 || last > math.MaxInt64-int64(len(clips)) {
		st, err := w.stmt(ctx, insertClip)
		if err != nil {
			return err
		}
		for i := range clips {
			c := &clips[i]
			res, err := st.ExecContext(ctx, appendClipValues(nil, c, c.CreatedAt)...)
			if err != nil {
				return translate(err, "import clips")
			}
			if c.ID, err = res.LastInsertId(); err != nil {
				return translate(err, "import clips")
			}
			if err := catalog.CheckAssignedID("clip", c.ID); err != nil {
				return err
			}
		}
		return nil
	}
	if err := catalog.CheckAssignedID("clip", last+int64(len(clips))); err != nil {
		return err
	}
	for len(clips) > 0 {
		n := min(len(clips), clipInsertRows)
		st, err := w.stmt(ctx, insertClipHead+strings.Repeat(insertClipRow+",", n-1)+insertClipRow)
		if err != nil {
			return err
		}
		args := w.args[:0]
		for i := range clips[:n] {
			c := &clips[i]
			args = appendClipValues(append(args, last+int64(i)+1), c, c.CreatedAt)
		}
		w.args = args
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return translate(err, "import clips")
		}
		for i := range clips[:n] {
			clips[i].ID = last + int64(i) + 1
		}
		last += int64(n)
		clips = clips[n:]
	}
	return nil
}
