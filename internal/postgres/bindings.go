package postgres

import (
	"context"
	"encoding/json"

	"catalog/internal/catalog"
)

// The bindings of sources' types and the records kept and not shown
// (contract 10; catalog.BindingStore), as in internal/sqlite.

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

// DropKept forgets the kept records of these vod_ids.
func (s *Store) DropKept(ctx context.Context, source string, vodIDs []int64) error {
	if len(vodIDs) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM source_kept WHERE source = $1 AND vod_id = ANY($2::bigint[])`, source, vodIDs)
	return translate(err, "drop kept records")
}

// ForgetRecords forgets which movies these records became.
func (s *Store) ForgetRecords(ctx context.Context, source string, vodIDs []int64) error {
	if len(vodIDs) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM source_movies WHERE source = $1 AND vod_id = ANY($2::bigint[])`, source, vodIDs)
	return translate(err, "forget records")
}
