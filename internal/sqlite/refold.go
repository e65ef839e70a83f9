package sqlite

import (
	"context"
	"database/sql"

	"catalog/internal/catalog"
	"catalog/internal/fold"
)

// refoldBatch is how many rows one transaction of a refold reads and
// rewrites: small enough that the writer is never held for long.
const refoldBatch = 2000

// refold brings the stored search text to the current fold when the
// database holds an older one (meta.search_fold): every row's
// catalog.SearchText is made again and written where it differs, a
// batch of rows per transaction (a refold cut short starts again and
// finds the rows already done unchanged), then the version is recorded.
// The search log hears of each changed row, as of any edit; updated_at
// is left alone: the records did not change. ok is false when the text
// was current already.
func (s *Store) refold(ctx context.Context) (r catalog.Refolded, ok bool, err error) {
	var stored int
	if err := s.writer.QueryRowContext(ctx, `SELECT search_fold FROM meta WHERE id = 1`).Scan(&stored); err != nil {
		return r, false, translate(err, "refold")
	}
	if stored == fold.Version {
		return r, false, nil
	}
	r.Fold = fold.Version
	r.Clips, r.ClipsChanged, err = s.refoldTable(ctx, `SELECT id, title, '', title_fold FROM clips`, `UPDATE clips SET title_fold = ? WHERE id = ?`, catalog.SearchText)
	if err != nil {
		return r, false, err
	}
	r.Movies, r.MoviesChanged, err = s.refoldTable(ctx, `SELECT id, name, id_code, name_fold FROM movies`, `UPDATE movies SET name_fold = ? WHERE id = ?`, catalog.SearchText)
	if err != nil {
		return r, false, err
	}
	// The title keys (catalog.TitleKey) fold too; migration 00022 adds
	// them empty and asks for a refold.
	_, _, err = s.refoldTable(ctx, `SELECT id, name, '', title_key FROM movies`, `UPDATE movies SET title_key = ? WHERE id = ?`, titleKey)
	if err != nil {
		return r, false, err
	}
	if _, err := s.writer.ExecContext(ctx, `UPDATE meta SET search_fold = ? WHERE id = 1`, fold.Version); err != nil {
		return r, false, translate(err, "refold")
	}
	return r, true, nil
}

// refoldTable refolds the rows of one table: sel reads id, title, code
// and the stored text, update writes the text of an id, derive makes
// the text.
func (s *Store) refoldTable(ctx context.Context, sel, update string, derive func(title, code string) string) (rows, changed int64, err error) {
	for after := int64(0); ; {
		n := 0
		err := s.writeTx(ctx, "refold", func(tx *sql.Tx) error {
			rs, err := tx.QueryContext(ctx, sel+` WHERE id > ? ORDER BY id LIMIT ?`, after, refoldBatch)
			if err != nil {
				return translate(err, "refold")
			}
			type row struct {
				id   int64
				text string
			}
			var stale []row
			for rs.Next() {
				var id int64
				var title, code, text string
				if err := rs.Scan(&id, &title, &code, &text); err != nil {
					rs.Close()
					return translate(err, "refold")
				}
				n++
				after = id
				if t := derive(title, code); t != text {
					stale = append(stale, row{id, t})
				}
			}
			if err := rs.Err(); err != nil {
				return translate(err, "refold")
			}
			rs.Close()
			for _, r := range stale {
				if _, err := tx.ExecContext(ctx, update, r.text, r.id); err != nil {
					return translate(err, "refold")
				}
			}
			changed += int64(len(stale))
			return nil
		})
		if err != nil {
			return rows, changed, err
		}
		rows += int64(n)
		if n < refoldBatch {
			return rows, changed, nil
		}
	}
}

// titleKey is catalog.TitleKey in the shape of refoldTable's derive.
func titleKey(title, _ string) string { return catalog.TitleKey(title) }
