package sqlstore

import (
	"context"
	"encoding/json"

	"catalog/internal/catalog"
)

// SetSourceSettings changes the settings of the source name.
func (m Methods) SetSourceSettings(ctx context.Context, name string, set catalog.SourceSettings) error {
	return m.change(ctx, "set source", "source", `UPDATE sources SET match_fields = $1, preferred = $2, interval_ms = $3 WHERE name = $4`,
		set.Match.String(), set.Preferred, set.Interval.Milliseconds(), name)
}

// RemoveSource deletes the source; its runs and links stay.
func (m Methods) RemoveSource(ctx context.Context, name string) error {
	return m.change(ctx, "remove source", "source", `DELETE FROM sources WHERE name = $1`, name)
}

// SetSourceRules sets the source's choice for records gone and its
// synonym rules.
func (m Methods) SetSourceRules(ctx context.Context, source string, gone catalog.Gone, synonyms []catalog.Synonym) error {
	return m.change(ctx, "set source rules", "source", `UPDATE sources SET gone = $1, synonyms = $2 WHERE name = $3`,
		string(gone), catalog.FormatSynonyms(synonyms), source)
}

// The bindings of sources' types and the records kept and not shown
// (contract 10; catalog.BindingStore).

// SourceTypes returns source's types by type_id, with their kept counts.
func (m Methods) SourceTypes(ctx context.Context, source string) ([]catalog.SourceType, error) {
	return all(ctx, m.DB, "source types", `SELECT t.type_id, t.name, t.category, t.skip, t.by_hand,
  (SELECT count(*) FROM source_kept k WHERE k.source = t.source AND k.type_id = t.type_id AND NOT k.gone)
FROM source_types t WHERE t.source = $1 ORDER BY t.type_id`, []any{source}, func(row Scanner, t *catalog.SourceType) error {
		return row.Scan(&t.ID, &t.Name, &t.Category, &t.Skip, &t.ByHand, &t.Kept)
	})
}

// KeptRecords returns the records kept because typeID is not bound.
func (m Methods) KeptRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedMovie, error) {
	return all(ctx, m.DB, "kept records", `SELECT vod_id, type_id, record, content_hash FROM source_kept
WHERE source = $1 AND type_id = $2 AND NOT gone ORDER BY vod_id`, []any{source, typeID}, func(row Scanner, r *catalog.CollectedMovie) error {
		var record string
		if err := row.Scan(&r.VodID, &r.TypeID, &record, &r.Hash); err != nil {
			return err
		}
		return json.Unmarshal([]byte(record), &r.Movie)
	})
}

// KeptVodIDs returns the vod_ids of every record of source kept, each
// with whether it is kept as gone (hidden).
func (m Methods) KeptVodIDs(ctx context.Context, source string) (map[int64]bool, error) {
	out := map[int64]bool{}
	var id int64
	var gone bool
	err := m.DB.Query(ctx, "kept records", `SELECT vod_id, gone FROM source_kept WHERE source = $1`, []any{source},
		func(row Scanner) error {
			err := row.Scan(&id, &gone)
			out[id] = gone
			return err
		})
	return out, err
}

// CollectedRecords returns the records of source's runs that became or
// joined a movie; typeID >= 0 limits them to that type.
func (m Methods) CollectedRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedRecord, error) {
	return all(ctx, m.DB, "collected records", `SELECT vod_id, movie_id, joined, servers, type_id FROM source_movies
WHERE source = $1 AND (CAST($2 AS bigint) < 0 OR type_id = $2) ORDER BY vod_id`, []any{source, typeID}, func(row Scanner, r *catalog.CollectedRecord) error {
		var names string
		err := row.Scan(&r.VodID, &r.MovieID, &r.Joined, &names, &r.TypeID)
		r.Servers = catalog.DecodeServerNames(names)
		return err
	})
}
