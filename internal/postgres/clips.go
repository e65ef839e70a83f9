package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// The clip statements' columns, from the field table
// (catalog.ClipColumns): every written one and every read one.
var (
	clipDataColumns = catalog.ClipColumns()
	clipReadColumns = catalog.ReadColumns(clipDataColumns)
	clipColumns     = `id, ` + catalog.ColumnNames(clipReadColumns, "") + `, created_at`
	clipDataNames   = catalog.ColumnNames(clipDataColumns, "")
)

// The clip write statements, from the field table.
var insertClip, updateClip, importClips = func() (insert, update, imp string) {
	var params, set, excluded []string
	for i, c := range clipDataColumns {
		params = append(params, "$"+strconv.Itoa(i+1))
		set = append(set, c.Name+" = $"+strconv.Itoa(i+2))
		excluded = append(excluded, c.Name+" = excluded."+c.Name)
	}
	// values: appendClipValues(c, created)
	insert = `INSERT INTO clips (` + clipDataNames + `, created_at)
		VALUES (` + strings.Join(params, ", ") + `, $` + strconv.Itoa(len(params)+1) + `) RETURNING id`
	// values: id, then the data columns' values
	update = `UPDATE clips SET ` + strings.Join(set, ", ") + ` WHERE id = $1`
	// When one id appears twice, the later record wins.
	imp = `INSERT INTO clips AS c (id, ` + clipDataNames + `, created_at)
		SELECT DISTINCT ON (id) id, ` + clipDataNames + `, created_at
		FROM clip_import ORDER BY id, seq DESC
		ON CONFLICT (id) DO UPDATE SET ` + strings.Join(excluded, ", ") + `, created_at = excluded.created_at`
	return insert, update, imp
}()

func scanClip(row pgx.Row, c *catalog.Clip) error {
	dest := catalog.AppendDests(append(make([]any, 0, len(clipReadColumns)+2), &c.ID), c, clipReadColumns)
	err := row.Scan(append(dest, &c.CreatedAt)...)
	c.CreatedAt = c.CreatedAt.UTC()
	return err
}

// GetClip returns ENOTFOUND when no clip has the id.
func (s *Store) GetClip(ctx context.Context, id int64) (catalog.Clip, error) {
	var c catalog.Clip
	err := scanClip(s.pool.QueryRow(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = $1`, id), &c)
	if err == pgx.ErrNoRows {
		return c, notFound("clip")
	}
	return c, translate(err, "get clip")
}

// CreateClip assigns c.ID and c.CreatedAt (UTC, whole seconds).
func (s *Store) CreateClip(ctx context.Context, c *catalog.Clip) error {
	created := catalog.StoredNow()
	var id int64
	args := append(catalog.AppendValues(nil, c, clipDataColumns), created)
	err := s.pool.QueryRow(ctx, insertClip, args...).Scan(&id)
	if pgCode(err) == "2200H" { // sequence_generator_limit_exceeded
		if err = s.renumber(ctx, "clips"); err == nil {
			err = s.pool.QueryRow(ctx, insertClip, args...).Scan(&id)
		}
	}
	if err != nil {
		return translate(err, "create clip")
	}
	c.ID, c.CreatedAt = id, created
	return nil
}

// UpdateClip loads the clip under a row lock, lets fn change it and
// saves it, in one transaction. The id and creation time never change.
func (s *Store) UpdateClip(ctx context.Context, id int64, fn func(*catalog.Clip) error) (catalog.Clip, error) {
	var c catalog.Clip
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		err := scanClip(tx.QueryRow(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = $1 FOR UPDATE`, id), &c)
		if err == pgx.ErrNoRows {
			return notFound("clip")
		}
		if err != nil {
			return err
		}
		if err := fn(&c); err != nil {
			return err
		}
		c.ID = id
		_, err = tx.Exec(ctx, updateClip, catalog.AppendValues([]any{id}, &c, clipDataColumns)...)
		return err
	})
	if err != nil {
		return catalog.Clip{}, translate(err, "update clip")
	}
	return c, nil
}

// ImportClips writes clips in one transaction: a clip with ID set
// replaces the clip with that id (or is inserted under it), the others
// get new ids, written back in order. A zero CreatedAt means now.
//
// The rows are COPYed into a temporary table and merged with one
// statement, so a large batch costs one stream of data and one run of
// the statement-level triggers (at most two DataVersion bumps: inserts
// and replacements), however many rows it holds.
func (s *Store) ImportClips(ctx context.Context, clips []catalog.Clip) error {
	if len(clips) == 0 {
		return nil
	}
	for i := range clips {
		if err := catalog.CheckRecordID("clip", clips[i].ID); err != nil {
			return err
		}
	}
	now := catalog.StoredNow()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// Imports exclude other writers (readers go on) so that handing
		// out ids and moving the sequence past explicit ids cannot race.
		if _, err := tx.Exec(ctx, `LOCK TABLE clips IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		seq, err := readSequence(ctx, tx, "clips", len(clips))
		if err != nil {
			return err
		}
		for i := range clips {
			c := &clips[i]
			if c.ID == 0 {
				c.ID = seq.take()
			} else {
				seq.skipPast(c.ID)
			}
			c.CreatedAt = catalog.StoredTimeOr(c.CreatedAt, now)
		}
		if err := seq.save(ctx, tx); err != nil {
			return err
		}
		// The connection's own import table, as upsertMovies's.
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS clip_import (LIKE clips INCLUDING DEFAULTS, seq bigint) ON COMMIT DELETE ROWS`); err != nil {
			return err
		}
		columns := append([]string{"seq", "id", "created_at"}, strings.Split(clipDataNames, ", ")...)
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"clip_import"}, columns,
			pgx.CopyFromSlice(len(clips), func(i int) ([]any, error) {
				c := &clips[i]
				return catalog.AppendValues(append(make([]any, 0, len(columns)), int64(i), c.ID, c.CreatedAt), c, clipDataColumns), nil
			}))
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, importClips)
		return err
	})
	return translate(err, "import clips")
}

// idSequence hands out the ids of an identity sequence in Go, the way
// SQLite's AUTOINCREMENT does: a new record gets an id above every id
// used before it, explicit ones of the same batch included. The caller
// holds a table lock that keeps every other user of the sequence out
// until it commits.
type idSequence struct {
	name        string // one of our own constant names, never input
	start, next int64
}

// readSequence reads the sequence of table (movies or clips), for a
// batch that numbers at most n new records. When those would pass
// catalog.MaxID, the batch is numbered after the highest id present
// instead, and save moves the sequence back there: a catalog whose
// record at the very top was deleted gets ids again (the rule of the
// SQLite engine's nextIDs).
func readSequence(ctx context.Context, tx pgx.Tx, table string, n int) (*idSequence, error) {
	name := table + "_id_seq"
	var last int64
	var called bool
	if err := tx.QueryRow(ctx, `SELECT last_value, is_called FROM `+name).Scan(&last, &called); err != nil {
		return nil, err
	}
	if called {
		last++
	}
	if last-1 > catalog.MaxID-int64(n) {
		var present int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM `+table).Scan(&present); err != nil {
			return nil, err
		}
		last = min(last, present+1)
	}
	return &idSequence{name: name, start: last, next: last}, nil
}

func (q *idSequence) take() int64 {
	q.next++
	return q.next - 1
}

func (q *idSequence) skipPast(id int64) { q.next = max(q.next, id+1) }

// save moves the sequence to the last id handed out or skipped, or
// fails when one handed out is past catalog.MaxID.
func (q *idSequence) save(ctx context.Context, tx pgx.Tx) error {
	if q.next == q.start {
		return nil
	}
	if err := catalog.CheckAssignedID(strings.TrimSuffix(q.name, "s_id_seq"), q.next-1); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `SELECT setval($1::regclass, $2)`, q.name, q.next-1)
	return err
}

// renumber is CreateClip's way back from the sequence's limit (2200H):
// under the import's lock, the sequence moves back to the highest id
// present, or fails with EUNAVAILABLE when that is the limit itself.
func (s *Store) renumber(ctx context.Context, table string) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE `+table+` IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		seq, err := readSequence(ctx, tx, table, 1)
		if err != nil {
			return err
		}
		seq.take()
		if err := seq.save(ctx, tx); err != nil {
			return err
		}
		// The id taken is given back: the insert's nextval hands it out.
		_, err = tx.Exec(ctx, `SELECT setval($1::regclass, $2, false)`, seq.name, seq.next-1)
		return err
	})
}
