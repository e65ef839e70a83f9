package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

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

// qualified prefixes each of the comma-separated columns with table.
func qualified(table, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = table + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// inIDs is the IN list of a keyed read: "(?,?,...)" and its arguments,
// padded to a multiple of idBucket by repeating the last id (IN is a
// set, so a repeated id reads its row once), so that pages of 11 to 20
// ids share one prepared statement. ids is not empty.
func inIDs(ids []int64) (string, []int64) {
	n := (len(ids) + idBucket - 1) / idBucket * idBucket
	args := make([]int64, n)
	for i := range args {
		args[i] = ids[min(i, len(ids)-1)]
	}
	return "(?" + strings.Repeat(",?", n-1) + ")", args
}

const idBucket = 10

// GetClip returns ENOTFOUND when no clip has the id.
func (s *Store) GetClip(ctx context.Context, id int64) (catalog.Clip, error) {
	got, err := byID(ctx, s, "get clip", `SELECT `+clipColumns+` FROM clips`, "id", []int64{id}, scanClip, clipID)
	if err != nil {
		return catalog.Clip{}, err
	}
	if len(got) == 0 {
		return catalog.Clip{}, notFound("clip")
	}
	return got[0], nil
}

// CreateClip assigns c.ID (nextIDs) and c.CreatedAt.
func (s *Store) CreateClip(ctx context.Context, c *catalog.Clip) error {
	created := now()
	var id int64
	err := s.writeTx(ctx, "create clip", func(tx *sql.Tx) error {
		last, err := nextIDs(ctx, tx, "clips", "clip", 1)
		if err != nil {
			return err
		}
		id = last + 1
		_, err = tx.ExecContext(ctx, insertClipHead+insertClipRow, appendClipValues([]any{id}, c, created)...)
		return translate(err, "create clip")
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

// ImportClips inserts clips in one transaction. A clip with ID set
// replaces the clip with that id (an upsert, so the triggers keep the
// index and counts right); a zero CreatedAt means now. The assigned ID
// and CreatedAt are written back into the slice. Runs of clips without
// an ID go in with multi-row INSERTs, numbered by nextIDs.
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
		return w.insertNew(ctx, clips[start:])
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

// clipWriter holds one import transaction's statements.
type clipWriter struct{ txStmts }

// replace upserts c, which has an ID.
func (w *clipWriter) replace(ctx context.Context, c *catalog.Clip) error {
	st, err := w.stmt(ctx, replaceClip)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, appendClipValues([]any{c.ID}, c, c.CreatedAt)...)
	return translate(err, "import clips")
}

// insertNew inserts clips that have no ID, numbered by nextIDs, with
// multi-row INSERTs.
func (w *clipWriter) insertNew(ctx context.Context, clips []catalog.Clip) error {
	if len(clips) == 0 {
		return nil
	}
	last, err := nextIDs(ctx, w.tx, "clips", "clip", len(clips))
	if err != nil {
		return err
	}
	err = w.insert(ctx, insertClipHead, insertClipRow, len(clips), last, func(args []any, i int) []any {
		return appendClipValues(args, &clips[i], clips[i].CreatedAt)
	})
	if err != nil {
		return err
	}
	for i := range clips {
		clips[i].ID = last + int64(i) + 1
	}
	return nil
}
