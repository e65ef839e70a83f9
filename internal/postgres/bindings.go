package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// The bindings of sources' types and the records kept and not shown
// (contract 10; catalog.BindingStore), as in internal/sqlite.

// SourceTypes returns source's types by type_id, with their kept counts.
func (s *Store) SourceTypes(ctx context.Context, source string) ([]catalog.SourceType, error) {
	var out []catalog.SourceType
	err := s.readRows(ctx, "source types", `SELECT t.type_id, t.name, t.category, t.skip, t.by_hand,
  (SELECT count(*) FROM source_kept k WHERE k.source = t.source AND k.type_id = t.type_id AND NOT k.gone)
FROM source_types t WHERE t.source = $1 ORDER BY t.type_id`, []any{source}, func(rows pgx.Rows) error {
		var t catalog.SourceType
		err := rows.Scan(&t.ID, &t.Name, &t.Category, &t.Skip, &t.ByHand, &t.Kept)
		out = append(out, t)
		return err
	})
	return out, err
}

// PutSourceTypes stores types; a binding made by hand is changed only
// by another made by hand.
func (s *Store) PutSourceTypes(ctx context.Context, source string, types []catalog.SourceType) error {
	if len(types) == 0 {
		return nil
	}
	ids, names, cats := make([]int64, len(types)), make([]string, len(types)), make([]string, len(types))
	skips, hands := make([]bool, len(types)), make([]bool, len(types))
	for i, t := range types {
		ids[i], names[i], cats[i], skips[i], hands[i] = t.ID, t.Name, t.Category, t.Skip, t.ByHand
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO source_types (source, type_id, name, category, skip, by_hand)
SELECT $1, k.id, k.name, k.category, k.skip, k.by_hand
FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bool[], $6::bool[]) AS k (id, name, category, skip, by_hand)
ON CONFLICT (source, type_id) DO UPDATE SET name = excluded.name,
  category = CASE WHEN source_types.by_hand AND NOT excluded.by_hand THEN source_types.category ELSE excluded.category END,
  skip = CASE WHEN source_types.by_hand AND NOT excluded.by_hand THEN source_types.skip ELSE excluded.skip END,
  by_hand = source_types.by_hand OR excluded.by_hand`, source, ids, names, cats, skips, hands)
	return translate(err, "bind source types")
}

// KeepRecords stores records not shown.
func (s *Store) KeepRecords(ctx context.Context, source string, records []catalog.CollectedMovie, gone bool) error {
	if len(records) == 0 {
		return nil
	}
	ids, types := make([]int64, len(records)), make([]int64, len(records))
	bodies, hashes := make([]string, len(records)), make([]string, len(records))
	for i, r := range records {
		b, err := json.Marshal(r.Movie)
		if err != nil {
			return err
		}
		ids[i], types[i], bodies[i], hashes[i] = r.VodID, r.TypeID, string(b), r.Hash
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO source_kept (source, vod_id, type_id, gone, record, content_hash)
SELECT $1, k.id, k.type_id, $2, k.record, k.hash FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::text[]) AS k (id, type_id, record, hash)
ON CONFLICT (source, vod_id) DO UPDATE SET type_id = excluded.type_id, gone = excluded.gone, record = excluded.record,
  content_hash = excluded.content_hash`, source, gone, ids, types, bodies, hashes)
	return translate(err, "keep records")
}

// KeptRecords returns the records kept because typeID is not bound.
func (s *Store) KeptRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedMovie, error) {
	var out []catalog.CollectedMovie
	err := s.readRows(ctx, "kept records", `SELECT vod_id, type_id, record, content_hash FROM source_kept
WHERE source = $1 AND type_id = $2 AND NOT gone ORDER BY vod_id`, []any{source, typeID}, func(rows pgx.Rows) error {
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
	_, err := s.pool.Exec(ctx, `DELETE FROM source_kept WHERE source = $1 AND vod_id = ANY($2::bigint[])`, source, vodIDs)
	return translate(err, "drop kept records")
}

// KeptVodIDs returns the vod_ids of every record of source kept, each
// with whether it is kept as gone (hidden).
func (s *Store) KeptVodIDs(ctx context.Context, source string) (map[int64]bool, error) {
	out := map[int64]bool{}
	err := s.readRows(ctx, "kept records", `SELECT vod_id, gone FROM source_kept WHERE source = $1`, []any{source},
		func(rows pgx.Rows) error {
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
WHERE source = $1 AND ($2::bigint < 0 OR type_id = $2) ORDER BY vod_id`, []any{source, typeID}, func(rows pgx.Rows) error {
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
	_, err := s.pool.Exec(ctx, `DELETE FROM source_movies WHERE source = $1 AND vod_id = ANY($2::bigint[])`, source, vodIDs)
	return translate(err, "forget records")
}

// SetSourceRules sets the source's choice for records gone and its
// synonym rules.
func (s *Store) SetSourceRules(ctx context.Context, source string, gone catalog.Gone, synonyms []catalog.Synonym) error {
	tag, err := s.pool.Exec(ctx, `UPDATE sources SET gone = $1, synonyms = $2 WHERE name = $3`,
		string(gone), catalog.FormatSynonyms(synonyms), source)
	if err != nil {
		return translate(err, "set source rules")
	}
	if tag.RowsAffected() == 0 {
		return notFound("source")
	}
	return nil
}

// readRows runs query and hands every row to scan.
func (s *Store) readRows(ctx context.Context, what, query string, args []any, scan func(pgx.Rows) error) error {
	rows, err := s.pool.Query(ctx, query, args...)
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
