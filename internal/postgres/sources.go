package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// CollectMovies writes one page of source's records in one transaction
// (catalog.PlanCollect decides what), holding the movie writers' lock
// like UpsertMovies; new movies take their ids from the sequence, so
// that every write goes by id.
func (s *Store) CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error {
	if len(page) == 0 {
		return nil
	}
	stamp := catalog.StoredNow()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockMovies(ctx, tx); err != nil {
			return err
		}
		writes, err := catalog.PlanCollect(ctx, source, page, collectLookup{tx})
		if err != nil {
			return err
		}
		fresh := 0
		for i := range writes {
			if writes[i].Movie.ID == 0 {
				fresh++
			}
		}
		seq, err := readSequence(ctx, tx, "movies", fresh)
		if err != nil {
			return err
		}
		movies := make([]catalog.Movie, len(writes))
		var linked, rehashed []int
		for i := range writes {
			movies[i] = writes[i].Movie
			if movies[i].ID == 0 {
				movies[i].ID = seq.take()
			}
			if writes[i].Link {
				linked = append(linked, i)
			} else {
				rehashed = append(rehashed, i)
			}
		}
		if err := upsertMovies(ctx, tx, stamp, movies); err != nil {
			return err
		}
		if len(linked) > 0 {
			vodIDs, movieIDs := make([]int64, len(linked)), make([]int64, len(linked))
			joined, servers, hashes := make([]bool, len(linked)), make([]string, len(linked)), make([]string, len(linked))
			types := make([]int64, len(linked))
			for i, k := range linked {
				w := &writes[k]
				vodIDs[i], movieIDs[i], joined[i], servers[i], hashes[i] = w.VodID, movies[k].ID, w.Joined, catalog.EncodeServerNames(w.Servers), w.Hash
				types[i] = page[w.Record].TypeID
			}
			_, err = tx.Exec(ctx, `INSERT INTO source_movies (source, vod_id, movie_id, joined, servers, content_hash, type_id)
SELECT $1, k.vod_id, k.movie_id, k.joined, k.servers, k.hash, k.type_id
FROM unnest($2::bigint[], $3::bigint[], $4::bool[], $5::text[], $6::text[], $7::bigint[]) AS k (vod_id, movie_id, joined, servers, hash, type_id)
ON CONFLICT (source, vod_id) DO UPDATE SET movie_id = excluded.movie_id, joined = excluded.joined, servers = excluded.servers,
  content_hash = excluded.content_hash, type_id = excluded.type_id`,
				source, vodIDs, movieIDs, joined, servers, hashes, types)
			if err != nil {
				return err
			}
		}
		if err := storeHashes(ctx, tx, source, page, writes, rehashed); err != nil {
			return err
		}
		for i, w := range writes {
			page[w.Record].Movie.ID = movies[i].ID
		}
		return nil
	})
	return translate(err, "collect movies")
}

// storeHashes stores the content hash of the written records whose
// links were there before (the writes at these indexes), with the
// record's type.
func storeHashes(ctx context.Context, tx pgx.Tx, source string, page []catalog.CollectedMovie, writes []catalog.CollectWrite, at []int) error {
	if len(at) == 0 {
		return nil
	}
	ids, hashes, types := make([]int64, len(at)), make([]string, len(at)), make([]int64, len(at))
	for i, w := range at {
		ids[i], hashes[i], types[i] = writes[w].VodID, writes[w].Hash, page[writes[w].Record].TypeID
	}
	_, err := tx.Exec(ctx, `UPDATE source_movies s SET content_hash = k.hash, type_id = k.type_id
FROM unnest($2::bigint[], $3::text[], $4::bigint[]) AS k (id, hash, type_id) WHERE s.source = $1 AND s.vod_id = k.id`, source, ids, hashes, types)
	return err
}

// collectLookup answers catalog.PlanCollect inside the page's
// transaction, one query per question for the whole page.
//
// A run grows source_movies and movies from nothing, faster than their
// statistics follow: a plan made while they looked small (a scan of all
// of the source's links, joined to the page's ids) costs more on every
// later page, and at any size the planner prices a hash join over the
// whole table below a few hundred key lookups. So each question is a
// key lookup per value of the page (a lateral join ending in LIMIT 1,
// which the planner cannot turn into a join, or "= ANY" on the one
// index it can use), planned with its values and the tables' sizes at
// that moment (an unnamed statement, lookupMode).
type collectLookup struct{ tx pgx.Tx }

const lookupMode = pgx.QueryExecModeCacheDescribe

// linksSQL finds the links of source ($1) for the vod_ids $2.
const linksSQL = `SELECT l.vod_id, l.movie_id, l.joined, l.servers, l.content_hash FROM unnest($2::bigint[]) AS k (id)
CROSS JOIN LATERAL (SELECT * FROM source_movies s WHERE s.source = $1 AND s.vod_id = k.id LIMIT 1) l`

func (l collectLookup) LinksByVodID(ctx context.Context, source string, vodIDs []int64) (map[int64]catalog.SourceLink, error) {
	out := make(map[int64]catalog.SourceLink)
	rows, err := l.tx.Query(ctx, linksSQL, lookupMode, source, vodIDs)
	if err != nil {
		return nil, err
	}
	var id int64
	var link catalog.SourceLink
	var names string
	_, err = pgx.ForEachRow(rows, []any{&id, &link.MovieID, &link.Joined, &names, &link.Hash}, func() error {
		link.Servers = catalog.DecodeServerNames(names)
		out[id] = link
		return nil
	})
	return out, err
}

func (l collectLookup) SourceSettings(ctx context.Context, source string) (catalog.SourceSettings, error) {
	set := catalog.DefaultSourceSettings
	var match string
	var interval int64
	err := l.tx.QueryRow(ctx, `SELECT match_fields, preferred, interval_ms FROM sources WHERE name = $1`, source).
		Scan(&match, &set.Preferred, &interval)
	if err == pgx.ErrNoRows {
		return set, nil
	}
	set.Match, set.Interval = catalog.StoredMatch(match), time.Duration(interval)*time.Millisecond
	return set, err
}

func (l collectLookup) LinksByMovie(ctx context.Context, movieIDs []int64) (map[int64][]catalog.MovieLink, error) {
	out := make(map[int64][]catalog.MovieLink)
	rows, err := l.tx.Query(ctx, `SELECT movie_id, source, joined, servers FROM source_movies
WHERE movie_id = ANY($1::bigint[]) ORDER BY movie_id, source`, lookupMode, movieIDs)
	if err != nil {
		return nil, err
	}
	var id int64
	var link catalog.MovieLink
	var names string
	_, err = pgx.ForEachRow(rows, []any{&id, &link.Source, &link.Joined, &names}, func() error {
		link.Servers = catalog.DecodeServerNames(names)
		out[id] = append(out[id], link)
		return nil
	})
	return out, err
}

// movieIDsBySQL finds, for each value ($1), the lowest ids of the
// movies holding it in col: a key lookup ending in LIMIT per value
// (collectLookup), through the column's index.
func movieIDsBySQL(col string) string {
	return `SELECT k.v, m.id FROM unnest($1::text[]) AS k (v)
CROSS JOIN LATERAL (SELECT x.id FROM movies x WHERE x.` + col + ` = k.v AND x.` + col + ` <> '' ORDER BY x.id LIMIT ` + strconv.Itoa(catalog.MaxKeyMatches) + `) m
ORDER BY k.v, m.id`
}

// movieIDsBy are the statements of catalog.MovieKey, each on an indexed
// column.
var movieIDsBy = [...]string{catalog.KeyTitle: movieIDsBySQL("title_key"), catalog.KeyDoubanID: movieIDsBySQL("douban_id"),
	catalog.KeyIDCode: movieIDsBySQL("id_code"), catalog.KeySlug: movieIDsBySQL("slug")}

func (l collectLookup) MovieIDsBy(ctx context.Context, key catalog.MovieKey, values []string) (map[string][]int64, error) {
	out := make(map[string][]int64)
	if len(values) == 0 {
		return out, nil
	}
	rows, err := l.tx.Query(ctx, movieIDsBy[key], lookupMode, values)
	if err != nil {
		return nil, err
	}
	var v string
	var id int64
	_, err = pgx.ForEachRow(rows, []any{&v, &id}, func() error {
		out[v] = append(out[v], id)
		return nil
	})
	return out, err
}

func (l collectLookup) Movies(ctx context.Context, ids []int64) (map[int64]catalog.Movie, error) {
	out := make(map[int64]catalog.Movie, len(ids))
	rows, err := l.tx.Query(ctx, `SELECT `+movieColumns+` FROM movies WHERE id = ANY($1::bigint[])`, lookupMode, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var m catalog.Movie
		if err := scanMovie(rows, &m); err != nil {
			return nil, err
		}
		out[m.ID] = m
	}
	return out, rows.Err()
}
