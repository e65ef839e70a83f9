package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// The movie statements' columns, from the field table
// (catalog.MovieColumns): every read column and every written one.
var (
	movieReadColumns = catalog.MovieReadColumns()
	movieDataColumns = catalog.MovieColumns()
	// movieColumns lists every stored field in scan order.
	movieColumns = `id, ` + catalog.ColumnNames(movieReadColumns, "") + `, updated_at`
)

// movieScan holds the scan destinations for one row, reused across rows.
type movieScan struct {
	m       catalog.Movie
	updated int64
	dest    []any
}

// newMovieScan scans movieColumns.
func newMovieScan() *movieScan {
	ms := &movieScan{}
	ms.dest = catalog.AppendDests(append(make([]any, 0, len(movieReadColumns)+4), &ms.m.ID), &ms.m, movieReadColumns)
	ms.dest = append(ms.dest, &ms.updated)
	return ms
}

func (ms *movieScan) scan(row scanner) error {
	if err := row.Scan(ms.dest...); err != nil {
		return err
	}
	ms.m.UpdatedAt = unixTime(ms.updated)
	return nil
}

// into scans a row and copies the movie to m.
func (ms *movieScan) into(row scanner, m *catalog.Movie) error {
	err := ms.scan(row)
	*m = ms.m
	return err
}

// movieValues are the stored values of m after id, in column order
// (name_fold included), ending with updated_at.
func movieValues(m *catalog.Movie, updated int64) []any {
	return appendMovieValues(make([]any, 0, len(movieDataColumns)+1), m, updated)
}

func appendMovieValues(v []any, m *catalog.Movie, updated int64) []any {
	return append(catalog.AppendValues(v, m, movieDataColumns), updated)
}

// ceilUnix is the first whole second at or after t, so that
// "updated_at >= ceilUnix(t)" means "updated at or after t".
func ceilUnix(t time.Time) int64 {
	sec := t.Unix()
	if t.Nanosecond() > 0 {
		sec++
	}
	return sec
}

// GetMovie returns ENOTFOUND when no movie has the id. It is a keyed
// read (byID) of one id, as a page's rows are.
func (s *Store) GetMovie(ctx context.Context, id int64) (catalog.Movie, error) {
	ms := newMovieScan()
	got, err := byID(ctx, s, "get movie", `SELECT `+movieColumns+` FROM movies`, "id", []int64{id}, ms.into, movieID)
	if err != nil {
		return catalog.Movie{}, err
	}
	if len(got) == 0 {
		return catalog.Movie{}, notFound("movie")
	}
	return got[0], nil
}

// CountMovies reads the trigger-kept count.
func (s *Store) CountMovies(ctx context.Context) (int64, error) {
	return s.count(ctx, "count movies", `SELECT movie_count FROM meta WHERE id = 1`)
}

// CountClips sums the trigger-kept counts per platform.
func (s *Store) CountClips(ctx context.Context) (int64, error) {
	return s.count(ctx, "count clips", `SELECT coalesce(sum(n), 0) FROM clip_counts`)
}

// count reads the one number query gives, with a prepared statement.
func (s *Store) count(ctx context.Context, what, query string) (int64, error) {
	if err := s.takeReader(ctx, what); err != nil {
		return 0, err
	}
	defer s.readSlots.Release(1)
	st, err := s.prepared(ctx, query)
	if err != nil {
		return 0, translate(err, what)
	}
	var n int64
	err = st.QueryRowContext(pointRead(ctx)).Scan(&n)
	return n, translate(err, what)
}

// EachMovie streams every movie from one read transaction (a consistent
// snapshot), reusing one Movie for every row.
func (s *Store) EachMovie(ctx context.Context, fn func(m *catalog.Movie) error) error {
	return s.eachMovie(ctx, "DESC", fn)
}

// UpsertMovies writes movies in one transaction, keyed by ID, else
// IDCode, else Slug. A movie's UpdatedAt is set when it is inserted or
// changes (to m.UpdatedAt when the caller gave one, else now); an
// unchanged movie keeps its stored time. ID and UpdatedAt are written
// back.
//
// The result is that of upserting the movies one by one, in order. Runs
// of movies keyed by distinct id_codes (what an import file holds) are
// written in bulk: one query finds the run's stored movies, and the new
// ones go in with multi-row INSERTs. Within such a run no write can
// change another movie's lookup, so the order of the writes does not
// matter. Any other movie is written on its own.
func (s *Store) UpsertMovies(ctx context.Context, movies []catalog.Movie) error {
	if len(movies) == 0 {
		return nil
	}
	for i := range movies {
		if err := catalog.CheckRecordID("movie", movies[i].ID); err != nil {
			return err
		}
	}
	stamp := now()
	return s.bulkTx(ctx, "upsert movies", func(tx *sql.Tx) error {
		return upsertMovies(ctx, tx, stamp, movies)
	})
}

// upsertMovies is UpsertMovies inside the transaction tx, whose writes
// are stamped with stamp.
func upsertMovies(ctx context.Context, tx *sql.Tx, stamp time.Time, movies []catalog.Movie) error {
	w := &movieWriter{txStmts: txStmts{tx: tx, what: "upsert movies"}, stamp: stamp}
	defer w.close()
	run := make(map[string]struct{})
	start := 0
	for i := range movies {
		m := &movies[i]
		_, dup := run[m.IDCode]
		if m.ID <= 0 && m.IDCode != "" && !dup {
			run[m.IDCode] = struct{}{}
			continue
		}
		if err := w.upsertByIDCode(ctx, movies[start:i]); err != nil {
			return err
		}
		clear(run)
		start = i
		if m.ID > 0 || m.IDCode == "" {
			if err := w.upsertOne(ctx, m); err != nil {
				return err
			}
			start = i + 1
		} else {
			run[m.IDCode] = struct{}{}
		}
	}
	return w.upsertByIDCode(ctx, movies[start:])
}

// The upsert lookups. A record without an id never lands by its
// id_code or slug on a movie a source collected (notCollected): a source
// could otherwise claim a code before the import that owns it, and take
// the import's movie back at its next run (issue 35); the import gets a
// movie of its own, and the source's record yields the key.
const (
	notCollected  = `NOT EXISTS (SELECT 1 FROM source_movies s WHERE s.movie_id = movies.id AND NOT s.joined)`
	movieByID     = `SELECT id, updated_at FROM movies WHERE id = ?`
	movieByIDCode = `SELECT id, updated_at FROM movies WHERE id_code = ? AND id_code <> '' AND ` + notCollected + ` ORDER BY id LIMIT 1`
	movieBySlug   = `SELECT id, updated_at FROM movies WHERE slug = ? AND ` + notCollected + ` ORDER BY id LIMIT 1`
	// moviesByIDCodes finds the stored movies of a JSON array of
	// id_codes, lowest id last so that it wins.
	moviesByIDCodes = `SELECT id_code, id, updated_at FROM movies
WHERE id_code IN (SELECT value FROM json_each(?)) AND id_code <> '' AND ` + notCollected + ` ORDER BY id DESC`
)

// The insert and update statements, from the field table: values are
// bound as id, movieValues. The update changes nothing (and so bumps
// neither updated_at nor the data version) when every value is equal.
var insertMovieHead, insertMovieRow, insertMovie, updateMovie = func() (head, row, insert, update string) {
	head = `INSERT INTO movies (id, ` + catalog.ColumnNames(movieDataColumns, "") + `, updated_at)
VALUES `
	row = `(?` + strings.Repeat(`, ?`, len(movieDataColumns)+1) + `)`
	var set, same []string
	for i, c := range movieDataColumns {
		p := `?` + strconv.Itoa(i+2)
		set = append(set, c.Name+` = `+p)
		if c.Dest != nil { // name_fold follows name
			same = append(same, c.Name+` = `+p)
		}
	}
	set = append(set, `updated_at = ?`+strconv.Itoa(len(movieDataColumns)+2))
	update = `UPDATE movies SET ` + strings.Join(set, `, `) + `
WHERE id = ?1 AND NOT (` + strings.Join(same, ` AND `) + `)`
	return head, row, head + row, update
}()

// movieWriter holds one upsert transaction's statements.
type movieWriter struct {
	txStmts
	stamp time.Time
	// last is the highest id the transaction used so far, once
	// numbered (newIDs asked the database).
	last     int64
	numbered bool
}

// newIDs is the id after which n new movies are numbered (nextIDs). The
// database is asked once per transaction, which is the only writer;
// after that the ids are counted on.
func (w *movieWriter) newIDs(ctx context.Context, n int) (int64, error) {
	if !w.numbered || w.last > catalog.MaxID-int64(n) {
		last, err := nextIDs(ctx, w.tx, "movies", "movie", n)
		if err != nil {
			return 0, err
		}
		w.last, w.numbered = last, true
	}
	first := w.last
	w.last += int64(n)
	return first, nil
}

// updatedAt is the time m gets if it is inserted or changed.
func (w *movieWriter) updatedAt(m *catalog.Movie) time.Time {
	return catalog.StoredTimeOr(m.UpdatedAt, w.stamp)
}

// upsertOne looks m up by its key and inserts or updates it.
func (w *movieWriter) upsertOne(ctx context.Context, m *catalog.Movie) error {
	var query string
	var key any
	switch {
	case m.ID > 0:
		query, key = movieByID, m.ID
	case m.IDCode != "":
		query, key = movieByIDCode, m.IDCode
	default:
		query, key = movieBySlug, m.Slug
	}
	lookup, err := w.stmt(ctx, query)
	if err != nil {
		return err
	}
	var id, stored int64
	err = lookup.QueryRowContext(ctx, key).Scan(&id, &stored)
	if err != nil && err != sql.ErrNoRows {
		return translate(err, "upsert movies")
	}
	if err == nil {
		return w.update(ctx, m, id, stored)
	}
	updated := w.updatedAt(m)
	insert, err := w.stmt(ctx, insertMovie)
	if err != nil {
		return err
	}
	id = m.ID
	if id <= 0 {
		last, err := w.newIDs(ctx, 1)
		if err != nil {
			return err
		}
		id = last + 1
	}
	w.last = max(w.last, id)
	if _, err := insert.ExecContext(ctx, append([]any{id}, movieValues(m, updated.Unix())...)...); err != nil {
		return translate(err, "upsert movies")
	}
	m.ID, m.UpdatedAt = id, updated
	return nil
}

// update writes m over the stored movie id, whose updated_at is stored.
func (w *movieWriter) update(ctx context.Context, m *catalog.Movie, id, stored int64) error {
	update, err := w.stmt(ctx, updateMovie)
	if err != nil {
		return err
	}
	updated := w.updatedAt(m)
	res, err := update.ExecContext(ctx, append([]any{id}, movieValues(m, updated.Unix())...)...)
	if err != nil {
		return translate(err, "upsert movies")
	}
	n, err := res.RowsAffected()
	if err != nil {
		return translate(err, "upsert movies")
	}
	m.ID = id
	if n > 0 {
		m.UpdatedAt = updated
	} else {
		m.UpdatedAt = unixTime(stored)
	}
	return nil
}

// upsertByIDCode upserts movies that have no ID and distinct, non-empty
// id_codes. A lone movie takes the one-at-a-time path, which costs one
// query instead of two.
func (w *movieWriter) upsertByIDCode(ctx context.Context, movies []catalog.Movie) error {
	switch len(movies) {
	case 0:
		return nil
	case 1:
		return w.upsertOne(ctx, &movies[0])
	}
	found, err := w.storedByIDCode(ctx, movies)
	if err != nil {
		return err
	}
	fresh := make([]*catalog.Movie, 0, len(movies)-len(found))
	for i := range movies {
		m := &movies[i]
		if sm, ok := found[m.IDCode]; ok {
			if err := w.update(ctx, m, sm.id, sm.updated); err != nil {
				return err
			}
			continue
		}
		fresh = append(fresh, m)
	}
	if len(fresh) == 0 {
		return nil
	}
	last, err := w.newIDs(ctx, len(fresh))
	if err != nil {
		return err
	}
	err = w.insert(ctx, insertMovieHead, insertMovieRow, len(fresh), last, func(args []any, i int) []any {
		return appendMovieValues(args, fresh[i], w.updatedAt(fresh[i]).Unix())
	})
	if err != nil {
		return err
	}
	for i, m := range fresh {
		m.ID, m.UpdatedAt = last+int64(i)+1, w.updatedAt(m)
	}
	return nil
}

// storedMovie is a stored movie's id and its updated_at as stored.
type storedMovie struct{ id, updated int64 }

// storedByIDCode finds the stored movies that have the id_codes of
// movies, by id_code.
func (w *movieWriter) storedByIDCode(ctx context.Context, movies []catalog.Movie) (map[string]storedMovie, error) {
	codes := make([]string, len(movies))
	for i := range movies {
		codes[i] = movies[i].IDCode
	}
	codesJSON, err := json.Marshal(codes)
	if err != nil {
		return nil, fmt.Errorf("sqlite: upsert movies: %w", err)
	}
	rows, err := w.tx.QueryContext(ctx, moviesByIDCodes, string(codesJSON))
	if err != nil {
		return nil, translate(err, "upsert movies")
	}
	defer rows.Close()
	found := make(map[string]storedMovie)
	for rows.Next() {
		var code string
		var sm storedMovie
		if err := rows.Scan(&code, &sm.id, &sm.updated); err != nil {
			return nil, translate(err, "upsert movies")
		}
		found[code] = sm
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "upsert movies")
	}
	return found, nil
}
