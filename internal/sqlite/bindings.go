package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"

	"catalog/internal/catalog"
)

// The bindings of sources' types and the records kept and not shown
// (contract 10; catalog.BindingStore).

// SourceTypes returns source's types by type_id, with their kept counts.
func (s *Store) SourceTypes(ctx context.Context, source string) ([]catalog.SourceType, error) {
	if err := s.takeReader(ctx, "source types"); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	rows, err := s.reader.QueryContext(ctx, `SELECT t.type_id, t.name, t.category, t.skip, t.by_hand,
  (SELECT count(*) FROM source_kept k WHERE k.source = t.source AND k.type_id = t.type_id AND NOT k.gone)
FROM source_types t WHERE t.source = ? ORDER BY t.type_id`, source)
	if err != nil {
		return nil, translate(err, "source types")
	}
	defer rows.Close()
	var out []catalog.SourceType
	for rows.Next() {
		var t catalog.SourceType
		if err := rows.Scan(&t.ID, &t.Name, &t.Category, &t.Skip, &t.ByHand, &t.Kept); err != nil {
			return nil, translate(err, "source types")
		}
		out = append(out, t)
	}
	return out, translate(rows.Err(), "source types")
}

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

// KeptRecords returns the records kept because typeID is not bound.
func (s *Store) KeptRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedMovie, error) {
	var out []catalog.CollectedMovie
	err := s.readRows(ctx, "kept records", `SELECT vod_id, type_id, record, content_hash FROM source_kept
WHERE source = ? AND type_id = ? AND NOT gone ORDER BY vod_id`, []any{source, typeID}, func(rows *sql.Rows) error {
		var r catalog.CollectedMovie
		var record string
		if err := rows.Scan(&r.VodID, &r.TypeID, &record, &r.Hash); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(record), &r.Movie); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
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

// KeptVodIDs returns the vod_ids of every record of source kept, each
// with whether it is kept as gone (hidden).
func (s *Store) KeptVodIDs(ctx context.Context, source string) (map[int64]bool, error) {
	out := map[int64]bool{}
	err := s.readRows(ctx, "kept records", `SELECT vod_id, gone FROM source_kept WHERE source = ?`, []any{source},
		func(rows *sql.Rows) error {
			var id int64
			var gone bool
			err := rows.Scan(&id, &gone)
			out[id] = gone
			return err
		})
	return out, err
}

// CollectedRecords returns the records of source's runs that became or
// joined a movie; typeID >= 0 limits them to that type.
func (s *Store) CollectedRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedRecord, error) {
	var out []catalog.CollectedRecord
	err := s.readRows(ctx, "collected records", `SELECT vod_id, movie_id, joined, servers, type_id FROM source_movies
WHERE source = ? AND (? < 0 OR type_id = ?) ORDER BY vod_id`, []any{source, typeID, typeID}, func(rows *sql.Rows) error {
		var r catalog.CollectedRecord
		var names string
		if err := rows.Scan(&r.VodID, &r.MovieID, &r.Joined, &names, &r.TypeID); err != nil {
			return err
		}
		r.Servers = catalog.DecodeServerNames(names)
		out = append(out, r)
		return nil
	})
	return out, err
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

// SetSourceRules sets the source's choice for records gone and its
// synonym rules.
func (s *Store) SetSourceRules(ctx context.Context, source string, gone catalog.Gone, synonyms []catalog.Synonym) error {
	res, err := s.writer.ExecContext(ctx, `UPDATE sources SET gone = ?, synonyms = ? WHERE name = ?`,
		string(gone), catalog.FormatSynonyms(synonyms), source)
	if err != nil {
		return translate(err, "set source rules")
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err, "set source rules")
	} else if n == 0 {
		return notFound("source")
	}
	return nil
}

// readRows runs query on a reader and hands every row to scan.
func (s *Store) readRows(ctx context.Context, what, query string, args []any, scan func(*sql.Rows) error) error {
	if err := s.takeReader(ctx, what); err != nil {
		return err
	}
	defer s.readSlots.Release(1)
	rows, err := s.reader.QueryContext(ctx, query, args...)
	if err != nil {
		return translate(err, what)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return translate(err, what)
		}
	}
	return translate(rows.Err(), what)
}
