package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"

	"catalog/internal/catalog"
)

// The bindings of sources' types and the records kept and not shown
// (contract 10; catalog.BindingStore).

// PutSourceTypes stores types; a binding made by hand is changed only
// by another made by hand.
func (s *Store) PutSourceTypes(ctx context.Context, source string, types []catalog.SourceType) error {
	return s.bulkTx(ctx, "bind source types", func(tx *sql.Tx) error {
		for _, t := range types {
			_, err := tx.ExecContext(ctx, `INSERT INTO source_types (source, type_id, name, category, skip, by_hand) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (source, type_id) DO UPDATE SET name = excluded.name,
  category = CASE WHEN source_types.by_hand AND NOT excluded.by_hand THEN source_types.category ELSE excluded.category END,
  skip = CASE WHEN source_types.by_hand AND NOT excluded.by_hand THEN source_types.skip ELSE excluded.skip END,
  by_hand = source_types.by_hand OR excluded.by_hand`, source, t.ID, t.Name, t.Category, t.Skip, t.ByHand)
			if err != nil {
				return translate(err, "bind source types")
			}
		}
		return nil
	})
}

// KeepRecords stores records not shown.
func (s *Store) KeepRecords(ctx context.Context, source string, records []catalog.CollectedMovie, gone bool) error {
	if len(records) == 0 {
		return nil
	}
	return s.bulkTx(ctx, "keep records", func(tx *sql.Tx) error {
		for _, r := range records {
			b, err := json.Marshal(r.Movie)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO source_kept (source, vod_id, type_id, gone, record, content_hash) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (source, vod_id) DO UPDATE SET type_id = excluded.type_id, gone = excluded.gone, record = excluded.record,
  content_hash = excluded.content_hash`, source, r.VodID, r.TypeID, gone, string(b), r.Hash)
			if err != nil {
				return translate(err, "keep records")
			}
		}
		return nil
	})
}

// DropKept forgets the kept records of these vod_ids.
func (s *Store) DropKept(ctx context.Context, source string, vodIDs []int64) error {
	if len(vodIDs) == 0 {
		return nil
	}
	b, _ := json.Marshal(vodIDs)
	_, err := s.writer.ExecContext(ctx, `DELETE FROM source_kept WHERE source = ? AND vod_id IN (SELECT value FROM json_each(?))`, source, string(b))
	return translate(err, "drop kept records")
}

// ForgetRecords forgets which movies these records became.
func (s *Store) ForgetRecords(ctx context.Context, source string, vodIDs []int64) error {
	if len(vodIDs) == 0 {
		return nil
	}
	b, _ := json.Marshal(vodIDs)
	_, err := s.writer.ExecContext(ctx, `DELETE FROM source_movies WHERE source = ? AND vod_id IN (SELECT value FROM json_each(?))`, source, string(b))
	return translate(err, "forget records")
}
