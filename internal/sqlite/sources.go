package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"catalog/internal/catalog"
)

// CollectMovies writes one page of source's records in one transaction
// (catalog.PlanCollect decides what): new movies are numbered by
// nextIDs, so that every write goes by id.
func (s *Store) CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error {
	if len(page) == 0 {
		return nil
	}
	stamp := now()
	return s.bulkTx(ctx, "collect movies", func(tx *sql.Tx) error {
		look := &collectLookup{txStmts: txStmts{tx: tx, what: "collect movies"}}
		defer look.close()
		writes, err := catalog.PlanCollect(ctx, source, page, look)
		if err != nil {
			return err
		}
		fresh := 0
		for i := range writes {
			if writes[i].Movie.ID == 0 {
				fresh++
			}
		}
		var last int64
		if fresh > 0 {
			if last, err = nextIDs(ctx, tx, "movies", "movie", fresh); err != nil {
				return err
			}
		}
		movies := make([]catalog.Movie, len(writes))
		for i := range writes {
			movies[i] = writes[i].Movie
			if movies[i].ID == 0 {
				last++
				movies[i].ID = last
			}
		}
		if err := upsertMovies(ctx, tx, stamp, movies); err != nil {
			return err
		}
		// Every written record's link is stored: a new one, or the
		// content hash (and servers) of one that changed.
		link, err := look.stmt(ctx, `INSERT INTO source_movies (source, vod_id, movie_id, joined, servers, content_hash, type_id) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (source, vod_id) DO UPDATE SET movie_id = excluded.movie_id, joined = excluded.joined, servers = excluded.servers,
  content_hash = excluded.content_hash, type_id = excluded.type_id`)
		if err != nil {
			return err
		}
		for i, w := range writes {
			if _, err := link.ExecContext(ctx, source, w.VodID, movies[i].ID, w.Joined, catalog.EncodeServerNames(w.Servers), w.Hash, page[w.Record].TypeID); err != nil {
				return translate(err, "collect movies")
			}
			page[w.Record].Movie.ID = movies[i].ID
		}
		return nil
	})
}

// collectLookup answers catalog.PlanCollect's reads inside the page's
// transaction. Ids and keys go in as one JSON array per query.
type collectLookup struct{ txStmts }

func (l *collectLookup) query(ctx context.Context, query string, arg any, scan func(*sql.Rows) error) error {
	b, err := json.Marshal(arg)
	if err != nil {
		return err
	}
	st, err := l.stmt(ctx, query)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(ctx, string(b))
	if err != nil {
		return translate(err, l.what)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return translate(err, l.what)
		}
	}
	return translate(rows.Err(), l.what)
}

func (l *collectLookup) SourceSettings(ctx context.Context, source string) (catalog.SourceSettings, error) {
	set := catalog.DefaultSourceSettings
	err := l.query(ctx, `SELECT match_fields, preferred, interval_ms FROM sources WHERE name = ? ->> '$'`, source,
		func(rows *sql.Rows) error {
			var match string
			var interval int64
			if err := rows.Scan(&match, &set.Preferred, &interval); err != nil {
				return err
			}
			set.Match, set.Interval = catalog.StoredMatch(match), time.Duration(interval)*time.Millisecond
			return nil
		})
	return set, err
}

func (l *collectLookup) LinksByVodID(ctx context.Context, source string, vodIDs []int64) (map[int64]catalog.SourceLink, error) {
	out := make(map[int64]catalog.SourceLink)
	err := l.query(ctx, `SELECT vod_id, movie_id, joined, servers, content_hash FROM source_movies
WHERE source = ?1 ->> '$.s' AND vod_id IN (SELECT value FROM json_each(?1 -> '$.ids'))`,
		map[string]any{"s": source, "ids": vodIDs}, func(rows *sql.Rows) error {
			var id int64
			var link catalog.SourceLink
			var names string
			if err := rows.Scan(&id, &link.MovieID, &link.Joined, &names, &link.Hash); err != nil {
				return err
			}
			link.Servers = catalog.DecodeServerNames(names)
			out[id] = link
			return nil
		})
	return out, err
}

func (l *collectLookup) LinksByMovie(ctx context.Context, movieIDs []int64) (map[int64][]catalog.MovieLink, error) {
	out := make(map[int64][]catalog.MovieLink)
	err := l.query(ctx, `SELECT movie_id, source, joined, servers FROM source_movies
WHERE movie_id IN (SELECT value FROM json_each(?)) ORDER BY movie_id, source`, movieIDs, func(rows *sql.Rows) error {
		var id int64
		var link catalog.MovieLink
		var names string
		if err := rows.Scan(&id, &link.Source, &link.Joined, &names); err != nil {
			return err
		}
		link.Servers = catalog.DecodeServerNames(names)
		out[id] = append(out[id], link)
		return nil
	})
	return out, err
}

// keyColumns are the columns of catalog.MovieKey, each indexed.
var keyColumns = [...]string{catalog.KeyTitle: "title_key", catalog.KeyDoubanID: "douban_id", catalog.KeyIDCode: "id_code", catalog.KeySlug: "slug"}

func (l *collectLookup) MovieIDsBy(ctx context.Context, key catalog.MovieKey, values []string) (map[string][]int64, error) {
	out := make(map[string][]int64)
	if len(values) == 0 {
		return out, nil
	}
	col := keyColumns[key]
	err := l.query(ctx, `SELECT k.value, m.id FROM json_each(?) k JOIN movies m ON m.id IN
  (SELECT x.id FROM movies x WHERE x.`+col+` = k.value AND x.`+col+` <> '' ORDER BY x.id LIMIT `+strconv.Itoa(catalog.MaxKeyMatches)+`)
ORDER BY k.value, m.id`, values, func(rows *sql.Rows) error {
		var v string
		var id int64
		if err := rows.Scan(&v, &id); err != nil {
			return err
		}
		out[v] = append(out[v], id)
		return nil
	})
	return out, err
}

func (l *collectLookup) Movies(ctx context.Context, ids []int64) (map[int64]catalog.Movie, error) {
	out := make(map[int64]catalog.Movie, len(ids))
	ms := newMovieScan()
	err := l.query(ctx, `SELECT `+movieColumns+` FROM movies WHERE id IN (SELECT value FROM json_each(?))`, ids,
		func(rows *sql.Rows) error {
			var m catalog.Movie
			if err := ms.into(rows, &m); err != nil {
				return err
			}
			out[m.ID] = m
			return nil
		})
	return out, err
}
