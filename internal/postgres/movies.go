package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// The movie statements' columns, from the field table
// (catalog.MovieColumns); each list field is stored in both served forms
// (catalog.List).
var (
	movieReadColumns  = catalog.MovieReadColumns()
	movieWriteColumns = catalog.MovieColumns()
	// movieColumns is the column order of scanMovie and the import table.
	movieColumns = `id, ` + catalog.ColumnNames(movieReadColumns, "") + `, updated_at`
	// movieDataColumns are the columns an upsert writes besides id and
	// updated_at; a row whose values all equal the stored ones is left
	// alone, so re-importing a catalog does not mark it changed.
	movieDataColumns = strings.Split(catalog.ColumnNames(movieWriteColumns, ""), ", ")
)

func scanMovie(row pgx.Row, m *catalog.Movie) error {
	dest := catalog.AppendDests(append(make([]any, 0, len(movieReadColumns)+2), &m.ID), m, movieReadColumns)
	err := row.Scan(append(dest, &m.UpdatedAt)...)
	m.UpdatedAt = m.UpdatedAt.UTC()
	return err
}

// GetMovie returns ENOTFOUND when no movie has the id.
func (s *Store) GetMovie(ctx context.Context, id int64) (catalog.Movie, error) {
	var m catalog.Movie
	err := scanMovie(s.pool.QueryRow(ctx, `SELECT `+movieColumns+` FROM movies WHERE id = $1`, id), &m)
	if err == pgx.ErrNoRows {
		return m, notFound("movie")
	}
	return m, translate(err, "get movie")
}

// CountMovies is the exact number of movies, from the counter.
func (s *Store) CountMovies(ctx context.Context) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT n FROM movie_count`).Scan(&n)
	return n, translate(err, "count movies")
}

// CountClips is the exact number of clips, from the counters per
// platform.
func (s *Store) CountClips(ctx context.Context) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(sum(n), 0)::bigint FROM clip_counts`).Scan(&n)
	return n, translate(err, "count clips")
}

// EachMovie streams every movie, highest id first, from one query (one
// consistent snapshot); rows arrive as fn consumes them, so memory does
// not grow with the catalog. The statement runs as long as fn takes
// the rows (the snapshot of a large catalog: minutes), so it lifts the
// connection's statement_timeout, which is meant for requests.
func (s *Store) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	return s.eachMovie(ctx, "DESC", fn)
}

// movieKey is what an imported movie without an id is matched by.
type movieKey struct {
	byCode bool
	value  string
}

// notCollected keeps a record without an id from landing, by its
// id_code or slug, on a movie a source collected (m): a source could
// otherwise claim a code before the import that owns it, and take the
// import's movie back at its next run (issue 35); the import gets a
// movie of its own, and the source's record yields the key.
const notCollected = `NOT EXISTS (SELECT 1 FROM source_movies s WHERE s.movie_id = m.id AND NOT s.joined)`

func keyOf(m *catalog.Movie) movieKey {
	if m.IDCode != "" {
		return movieKey{byCode: true, value: m.IDCode}
	}
	return movieKey{value: m.Slug}
}

// UpsertMovies writes normalised movies in one transaction. The key is
// ID when non-zero, else IDCode when non-empty, else Slug; the matched
// (or newly assigned) id is written back to each movie, and so is
// UpdatedAt: set when a movie is inserted or changes (to the caller's
// UpdatedAt when given, else now, in whole seconds); an unchanged movie
// keeps its stored time. Of several stored movies sharing a key, the
// lowest id is matched; a key that an earlier record of the same batch
// used matches that record's movie.
func (s *Store) UpsertMovies(ctx context.Context, movies []catalog.Movie) error {
	if len(movies) == 0 {
		return nil
	}
	for i := range movies {
		if err := catalog.CheckRecordID("movie", movies[i].ID); err != nil {
			return err
		}
	}
	stamp := catalog.StoredNow()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockMovies(ctx, tx); err != nil {
			return err
		}
		return upsertMovies(ctx, tx, stamp, movies)
	})
	return translate(err, "upsert movies")
}

// lockMovies makes tx the one movie writer, readers unaffected: key
// lookups and the id sequence cannot race with another writer.
func lockMovies(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `LOCK TABLE movies IN SHARE ROW EXCLUSIVE MODE`)
	return err
}

// upsertMovies is UpsertMovies inside tx, which holds lockMovies; its
// writes are stamped with stamp.
func upsertMovies(ctx context.Context, tx pgx.Tx, stamp time.Time, movies []catalog.Movie) error {
	if err := assignIDs(ctx, tx, movies); err != nil {
		return err
	}
	// The import table is the connection's own, made once and emptied by
	// every commit: making and dropping it in each transaction wrote the
	// system catalogs every time (a collection writes a batch every few
	// pages), and the upsert below stays one prepared statement. The
	// connection never outlives a migration: serve migrates before it
	// opens its pool.
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS movie_import (LIKE movies INCLUDING DEFAULTS, seq bigint) ON COMMIT DELETE ROWS`); err != nil {
		return err
	}
	columns := append([]string{"seq", "id", "updated_at"}, movieDataColumns...)
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"movie_import"}, columns,
		pgx.CopyFromSlice(len(movies), func(i int) ([]any, error) {
			m := &movies[i]
			updated := catalog.StoredTimeOr(m.UpdatedAt, stamp)
			return catalog.AppendValues(append(make([]any, 0, len(movieWriteColumns)+3), int64(i), m.ID, updated), m, movieWriteColumns), nil
		}))
	if err != nil {
		return err
	}
	// The upsert returns the rows it wrote; an unchanged movie keeps
	// its stored time, read back separately.
	updated := make(map[int64]time.Time, len(movies))
	if err := collectTimes(ctx, tx, updated, upsertMoviesSQL); err != nil {
		return err
	}
	var unchanged []int64
	for i := range movies {
		if _, ok := updated[movies[i].ID]; !ok {
			unchanged = append(unchanged, movies[i].ID)
		}
	}
	if len(unchanged) > 0 {
		if err := collectTimes(ctx, tx, updated,
			`SELECT m.id, m.updated_at FROM movies m JOIN unnest($1::bigint[]) AS k (id) ON m.id = k.id`, unchanged); err != nil {
			return err
		}
	}
	for i := range movies {
		movies[i].UpdatedAt = updated[movies[i].ID]
	}
	return nil
}

// assignIDs gives each movie without an id the id of the stored movie
// its key matches, else a new one from the sequence.
func assignIDs(ctx context.Context, tx pgx.Tx, movies []catalog.Movie) error {
	stored, err := storedKeys(ctx, tx, movies)
	if err != nil {
		return err
	}
	fresh := 0
	for i := range movies {
		if movies[i].ID == 0 {
			fresh++
		}
	}
	seq, err := readSequence(ctx, tx, "movies", fresh)
	if err != nil {
		return err
	}
	// Records are resolved in order, as if upserted one by one: a
	// key an earlier record of the batch used matches its movie.
	seen := make(map[movieKey]int64)
	for i := range movies {
		m := &movies[i]
		if m.ID != 0 {
			seq.skipPast(m.ID)
		} else if id, ok := seen[keyOf(m)]; ok {
			m.ID = id
		} else if id, ok := stored[keyOf(m)]; ok {
			m.ID = id
		} else {
			m.ID = seq.take()
		}
		if m.IDCode != "" {
			seen[movieKey{byCode: true, value: m.IDCode}] = m.ID
		}
		seen[movieKey{value: m.Slug}] = m.ID
	}
	return seq.save(ctx, tx)
}

// storedKeys finds the stored movies that the id-less records match,
// in one query per key kind.
func storedKeys(ctx context.Context, tx pgx.Tx, movies []catalog.Movie) (map[movieKey]int64, error) {
	var codes, slugs []string
	for i := range movies {
		if movies[i].ID != 0 {
			continue
		}
		if k := keyOf(&movies[i]); k.byCode {
			codes = append(codes, k.value)
		} else {
			slugs = append(slugs, k.value)
		}
	}
	found := make(map[movieKey]int64)
	for _, q := range []struct {
		byCode bool
		values []string
		sql    string
	}{
		// A join with unnest plans in constant time; "= ANY($1)" with
		// 100 000 values takes the planner a second.
		{true, codes, `SELECT DISTINCT ON (m.id_code) m.id_code, m.id FROM movies m
			JOIN unnest($1::text[]) AS k (v) ON m.id_code = k.v AND m.id_code <> '' WHERE ` + notCollected + ` ORDER BY m.id_code, m.id`},
		{false, slugs, `SELECT DISTINCT ON (m.slug) m.slug, m.id FROM movies m
			JOIN unnest($1::text[]) AS k (v) ON m.slug = k.v WHERE ` + notCollected + ` ORDER BY m.slug, m.id`},
	} {
		if len(q.values) == 0 {
			continue
		}
		rows, err := tx.Query(ctx, q.sql, q.values)
		if err != nil {
			return nil, err
		}
		var key string
		var id int64
		_, err = pgx.ForEachRow(rows, []any{&key, &id}, func() error {
			found[movieKey{byCode: q.byCode, value: key}] = id
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return found, nil
}

// upsertMoviesSQL merges the import table into movies. When one id
// appears twice, the later record wins; unchanged rows are not written,
// so their updated_at stays.
var upsertMoviesSQL = func() string {
	cols := "id, updated_at"
	set := "updated_at = excluded.updated_at"
	oldRow, newRow := "", ""
	for i, c := range movieDataColumns {
		cols += ", " + c
		set += ", " + c + " = excluded." + c
		if i > 0 {
			oldRow += ", "
			newRow += ", "
		}
		oldRow += "m." + c
		newRow += "excluded." + c
	}
	return `INSERT INTO movies AS m (` + cols + `)
		SELECT DISTINCT ON (id) ` + cols + ` FROM movie_import ORDER BY id, seq DESC
		ON CONFLICT (id) DO UPDATE SET ` + set + `
		WHERE (` + oldRow + `) IS DISTINCT FROM (` + newRow + `)
		RETURNING id, updated_at`
}()

// collectTimes runs a query returning (id, updated_at) rows into into.
func collectTimes(ctx context.Context, tx pgx.Tx, into map[int64]time.Time, sql string, args ...any) error {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	var id int64
	var at time.Time
	_, err = pgx.ForEachRow(rows, []any{&id, &at}, func() error {
		into[id] = at.UTC()
		return nil
	})
	return err
}
