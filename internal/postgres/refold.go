package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/fold"
)

// refoldBatch is how many rows one transaction of a refold reads and
// rewrites (one UPDATE for the batch's changed rows).
const refoldBatch = 5000

// refold brings the stored search text to the current fold when the
// database holds an older one (meta.search_fold): every row's
// catalog.SearchText is made again and written where it differs, a
// batch of rows per transaction (a refold cut short starts again and
// finds the rows already done unchanged), then the version is recorded.
// Instances that migrate at once take turns on the migration lock; the
// later ones find the text current. The search log hears of each
// changed row, as of any edit; updated_at is left alone: the records
// did not change. ok is false when the text was current already.
func (s *Store) refold(ctx context.Context) (r catalog.Refolded, ok bool, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return r, false, translate(err, "refold")
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLockID); err != nil {
		return r, false, translate(err, "refold")
	}
	defer func() {
		_, uerr := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLockID)
		err = errors.Join(err, translate(uerr, "refold"))
	}()
	var stored int
	if err := conn.QueryRow(ctx, `SELECT search_fold FROM meta`).Scan(&stored); err != nil {
		return r, false, translate(err, "refold")
	}
	if stored == fold.Version {
		return r, false, nil
	}
	r.Fold = fold.Version
	r.Clips, r.ClipsChanged, err = refoldTable(ctx, conn.Conn(), `SELECT id, title, '', title_fold FROM clips`,
		`UPDATE clips AS t SET title_fold = v.text FROM unnest($1::bigint[], $2::text[]) AS v(id, text) WHERE t.id = v.id`, catalog.SearchText)
	if err != nil {
		return r, false, err
	}
	r.Movies, r.MoviesChanged, err = refoldTable(ctx, conn.Conn(), `SELECT id, name, id_code, name_fold FROM movies`,
		`UPDATE movies AS t SET name_fold = v.text FROM unnest($1::bigint[], $2::text[]) AS v(id, text) WHERE t.id = v.id`, catalog.SearchText)
	if err != nil {
		return r, false, err
	}
	// The title keys (catalog.TitleKey) fold too; migration 00022 adds
	// them empty and asks for a refold.
	_, _, err = refoldTable(ctx, conn.Conn(), `SELECT id, name, '', title_key FROM movies`,
		`UPDATE movies AS t SET title_key = v.text FROM unnest($1::bigint[], $2::text[]) AS v(id, text) WHERE t.id = v.id`, titleKey)
	if err != nil {
		return r, false, err
	}
	if _, err := conn.Exec(ctx, `UPDATE meta SET search_fold = $1`, fold.Version); err != nil {
		return r, false, translate(err, "refold")
	}
	return r, true, nil
}

// refoldTable refolds the rows of one table: sel reads id, title, code
// and the stored text, update writes the texts of ids ($1, $2), derive
// makes the text.
func refoldTable(ctx context.Context, conn *pgx.Conn, sel, update string, derive func(title, code string) string) (rows, changed int64, err error) {
	for after := int64(0); ; {
		n := 0
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			rs, err := tx.Query(ctx, sel+` WHERE id > $1 ORDER BY id LIMIT $2`, after, refoldBatch)
			if err != nil {
				return err
			}
			var ids []int64
			var texts []string
			var id int64
			var title, code, text string
			_, err = pgx.ForEachRow(rs, []any{&id, &title, &code, &text}, func() error {
				n++
				after = id
				if t := derive(title, code); t != text {
					ids, texts = append(ids, id), append(texts, t)
				}
				return nil
			})
			if err != nil || len(ids) == 0 {
				return err
			}
			changed += int64(len(ids))
			_, err = tx.Exec(ctx, update, ids, texts)
			return err
		})
		if err != nil {
			return rows, changed, translate(err, "refold")
		}
		rows += int64(n)
		if n < refoldBatch {
			return rows, changed, nil
		}
	}
}

// titleKey is catalog.TitleKey in the shape of refoldTable's derive.
func titleKey(title, _ string) string { return catalog.TitleKey(title) }
