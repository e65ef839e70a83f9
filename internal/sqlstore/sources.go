package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"catalog/internal/catalog"
)

// AddSource stores s; ECONFLICT when the name is taken.
func (m Methods) AddSource(ctx context.Context, src *catalog.Source) error {
	created := catalog.StoredNow()
	if src.Match == 0 {
		src.SourceSettings = catalog.DefaultSourceSettings
	}
	_, err := m.DB.Exec(ctx, "add source",
		`INSERT INTO sources (name, url, every_seconds, hours, created_at, match_fields, preferred, interval_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		src.Name, src.URL, int64(src.Every/time.Second), src.Hours, m.DB.Time(created), src.Match.String(), src.Preferred, src.Interval.Milliseconds())
	if catalog.ErrorCode(err) == catalog.ECONFLICT {
		return catalog.Errorf(catalog.ECONFLICT, "a source named %q already exists", src.Name)
	}
	if err != nil {
		return err
	}
	src.CreatedAt = created
	return nil
}

// sourceQuery reads sources with their newest run and when their newest
// run that read every page finished (times not set when there is none).
const sourceQuery = `SELECT s.name, s.url, s.every_seconds, s.hours, s.created_at, s.match_fields, s.preferred, s.interval_ms, s.gone, s.synonyms,
  r.started_at, r.finished_at, coalesce(r.pages, 0), coalesce(r.read, 0),
  coalesce(r.written, 0), coalesce(r.unchanged, 0), coalesce(r.rejected, 0), coalesce(r.unbound, 0), coalesce(r.error, ''),
  (SELECT max(finished_at) FROM source_runs c WHERE c.source = s.name AND c.error = '')
FROM sources s LEFT JOIN source_runs r ON r.id = (SELECT max(id) FROM source_runs x WHERE x.source = s.name)`

func (m Methods) scanSource(row Scanner, src *catalog.Source) error {
	var every, interval int64
	var match, synonyms string
	r := &src.LastRun
	err := row.Scan(&src.Name, &src.URL, &every, &src.Hours, m.DB.TimeDest(&src.CreatedAt), &match, &src.Preferred, &interval, &src.Gone, &synonyms,
		m.DB.TimeDest(&r.Started), m.DB.TimeDest(&r.Finished), &r.Pages, &r.Read, &r.Written, &r.Unchanged, &r.Rejected, &r.Unbound, &r.Err,
		m.DB.TimeDest(&src.LastSuccess))
	src.Match, src.Interval = catalog.StoredMatch(match), time.Duration(interval)*time.Millisecond
	src.Synonyms, _ = catalog.ParseSynonyms(synonyms) // stored checked
	src.Every = time.Duration(every) * time.Second
	if !r.Started.IsZero() {
		r.Source = src.Name
	}
	return err
}

// ListSources returns every source by name.
func (m Methods) ListSources(ctx context.Context) ([]catalog.Source, error) {
	return All(ctx, m.DB, "list sources", sourceQuery+` ORDER BY s.name`, nil, m.scanSource)
}

// SourceByName returns ENOTFOUND when there is none.
func (m Methods) SourceByName(ctx context.Context, name string) (catalog.Source, error) {
	return first(ctx, m.DB, "get source", "source", sourceQuery+` WHERE s.name = $1`, []any{name}, m.scanSource)
}

// RecordRun stores one run's result.
func (m Methods) RecordRun(ctx context.Context, r catalog.SourceRun) error {
	_, err := m.DB.Exec(ctx, "record run", `INSERT INTO source_runs
(source, started_at, finished_at, pages, read, written, unchanged, rejected, unbound, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		r.Source, m.DB.Time(r.Started), m.DB.Time(r.Finished), r.Pages, r.Read, r.Written, r.Unchanged, r.Rejected, r.Unbound, r.Err)
	return err
}

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
	return All(ctx, m.DB, "source types", `SELECT t.type_id, t.name, t.category, t.skip, t.by_hand,
  (SELECT count(*) FROM source_kept k WHERE k.source = t.source AND k.type_id = t.type_id AND NOT k.gone)
FROM source_types t WHERE t.source = $1 ORDER BY t.type_id`, []any{source}, func(row Scanner, t *catalog.SourceType) error {
		return row.Scan(&t.ID, &t.Name, &t.Category, &t.Skip, &t.ByHand, &t.Kept)
	})
}

// KeptRecords returns the records kept because typeID is not bound.
func (m Methods) KeptRecords(ctx context.Context, source string, typeID int64) ([]catalog.CollectedMovie, error) {
	return All(ctx, m.DB, "kept records", `SELECT vod_id, type_id, record, content_hash FROM source_kept
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
	return All(ctx, m.DB, "collected records", `SELECT vod_id, movie_id, joined, servers, type_id FROM source_movies
WHERE source = $1 AND (CAST($2 AS bigint) < 0 OR type_id = $2) ORDER BY vod_id`, []any{source, typeID}, func(row Scanner, r *catalog.CollectedRecord) error {
		var names string
		err := row.Scan(&r.VodID, &r.MovieID, &r.Joined, &names, &r.TypeID)
		r.Servers = catalog.DecodeServerNames(names)
		return err
	})
}
