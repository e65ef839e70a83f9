package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"catalog/internal/catalog"
)

const clipColumns = `id, title, iframe_url, cover_url, actor, studio, platform, notes, created_at`

type scanner interface{ Scan(dest ...any) error }

func scanClip(row scanner, c *catalog.Clip) error {
	var created int64
	if err := row.Scan(&c.ID, &c.Title, &c.IframeURL, &c.CoverURL, &c.Actor, &c.Studio, &c.Platform, &c.Notes, &created); err != nil {
		return err
	}
	c.CreatedAt = unixTime(created)
	return nil
}

// searchWhere builds the conditions for folded search terms over the
// table's fold column. The FTS5 index (trigram tokenizer, detail=none to
// keep it small and fast to build) narrows the rows: a term of at least
// catalog.MinIndexedTerm runes needs each of its trigrams. detail=none
// keeps no positions, so that only proves the trigrams occur somewhere;
// instr() then checks every term as a real substring. instr treats
// % _ and \ literally, unlike LIKE.
func searchWhere(table, foldCol string, terms []string) (conds []string, args []any) {
	var tokens []string
	for _, t := range terms {
		tokens = appendTrigrams(tokens, t)
	}
	if len(tokens) > 0 {
		conds = append(conds, table+`.id IN (SELECT rowid FROM `+table+`_fts WHERE `+table+`_fts MATCH ?)`)
		args = append(args, strings.Join(tokens, " AND "))
	}
	for _, t := range terms {
		conds = append(conds, `instr(`+table+`.`+foldCol+`, ?) > 0`)
		args = append(args, t)
	}
	return conds, args
}

// appendTrigrams appends the FTS5 query tokens for term: trigrams that
// cover it (every third one and the last; instr does the exact check),
// each a quoted string so that no query syntax applies. Terms shorter
// than a trigram add nothing.
func appendTrigrams(tokens []string, term string) []string {
	if utf8.RuneCountInString(term) < catalog.MinIndexedTerm {
		return tokens
	}
	runes := []rune(term)
	last := len(runes) - catalog.MinIndexedTerm
	for i := 0; ; i += catalog.MinIndexedTerm {
		i = min(i, last)
		tok := `"` + strings.ReplaceAll(string(runes[i:i+catalog.MinIndexedTerm]), `"`, `""`) + `"`
		if !slices.Contains(tokens, tok) {
			tokens = append(tokens, tok)
		}
		if i == last {
			return tokens
		}
	}
}

func where(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// ListClips returns one page, newest first, and the exact total. Without
// search terms the total comes from the trigger-kept clip_counts table.
func (s *Store) ListClips(ctx context.Context, f catalog.ClipFilter) ([]catalog.Clip, int64, error) {
	var conds []string
	var args []any
	if len(f.Terms) > 0 {
		conds, args = searchWhere("clips", "title_fold", f.Terms)
	}
	if f.Platform != "" {
		conds = append(conds, `clips.platform = ?`)
		args = append(args, f.Platform)
	}

	cache := len(f.Terms) <= maxCachedTerms
	var total int64
	var err error
	switch {
	case len(f.Terms) > 0:
		total, err = s.count(ctx, `SELECT count(*) FROM clips`+where(conds), args, cache)
	case f.Platform != "":
		total, err = s.count(ctx, `SELECT coalesce(sum(n), 0) FROM clip_counts WHERE platform = ?`, args, true)
	default:
		total, err = s.count(ctx, `SELECT coalesce(sum(n), 0) FROM clip_counts`, nil, true)
	}
	if err != nil {
		return nil, 0, translate(err, "count clips")
	}
	if total == 0 || f.Paging.Offset() >= total {
		return []catalog.Clip{}, total, nil
	}

	query := `SELECT ` + clipColumns + ` FROM clips` + where(conds) + ` ORDER BY clips.id DESC LIMIT ? OFFSET ?`
	args = append(args, f.Paging.Limit, f.Paging.Offset())
	rows, err := s.query(ctx, query, args, cache)
	if err != nil {
		return nil, 0, translate(err, "list clips")
	}
	defer rows.Close()
	clips := make([]catalog.Clip, 0, min(f.Paging.Limit, total))
	for rows.Next() {
		var c catalog.Clip
		if err := scanClip(rows, &c); err != nil {
			return nil, 0, translate(err, "list clips")
		}
		clips = append(clips, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, translate(err, "list clips")
	}
	return clips, total, nil
}

// maxCachedTerms bounds the query shapes kept prepared: the text of a
// search query depends on its number of terms, and a client choosing
// that number must not grow the statement cache without limit.
const maxCachedTerms = 4

// query runs a read, through a cached prepared statement when cache is
// set.
func (s *Store) query(ctx context.Context, query string, args []any, cache bool) (*sql.Rows, error) {
	if !cache {
		return s.reader.QueryContext(ctx, query, args...)
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (s *Store) count(ctx context.Context, query string, args []any, cache bool) (int64, error) {
	var n int64
	if !cache {
		err := s.reader.QueryRowContext(ctx, query, args...).Scan(&n)
		return n, err
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		return 0, err
	}
	err = st.QueryRowContext(ctx, args...).Scan(&n)
	return n, err
}

// GetClip returns ENOTFOUND when no clip has the id.
func (s *Store) GetClip(ctx context.Context, id int64) (catalog.Clip, error) {
	var c catalog.Clip
	st, err := s.prepared(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = ?`)
	if err != nil {
		return c, err
	}
	if err := scanClip(st.QueryRowContext(ctx, id), &c); err != nil {
		if err == sql.ErrNoRows {
			return c, notFound("clip")
		}
		return c, translate(err, "get clip")
	}
	return c, nil
}

const insertClip = `INSERT INTO clips (title, title_fold, iframe_url, cover_url, actor, studio, platform, notes, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

// CreateClip assigns c.ID and c.CreatedAt.
func (s *Store) CreateClip(ctx context.Context, c *catalog.Clip) error {
	created := now()
	var id int64
	err := s.writeTx(ctx, "create clip", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, insertClip,
			c.Title, catalog.Fold(c.Title), c.IframeURL, c.CoverURL, c.Actor, c.Studio, c.Platform, c.Notes, created.Unix())
		if err != nil {
			return translate(err, "create clip")
		}
		if id, err = res.LastInsertId(); err != nil {
			return translate(err, "create clip")
		}
		return flushPending(ctx, tx, "clips", "title_fold")
	})
	if err != nil {
		return err
	}
	c.ID, c.CreatedAt = id, created
	return nil
}

// UpdateClip loads, changes and saves one clip in a write transaction;
// id and created_at cannot be changed by fn.
func (s *Store) UpdateClip(ctx context.Context, id int64, fn func(*catalog.Clip) error) (catalog.Clip, error) {
	var c catalog.Clip
	err := s.writeTx(ctx, "update clip", func(tx *sql.Tx) error {
		if err := scanClip(tx.QueryRowContext(ctx, `SELECT `+clipColumns+` FROM clips WHERE id = ?`, id), &c); err != nil {
			if err == sql.ErrNoRows {
				return notFound("clip")
			}
			return translate(err, "update clip")
		}
		keepID, keepCreated := c.ID, c.CreatedAt
		if err := fn(&c); err != nil {
			return err
		}
		c.ID, c.CreatedAt = keepID, keepCreated
		_, err := tx.ExecContext(ctx, `UPDATE clips SET title = ?, title_fold = ?, iframe_url = ?, cover_url = ?,
actor = ?, studio = ?, platform = ?, notes = ? WHERE id = ?`,
			c.Title, catalog.Fold(c.Title), c.IframeURL, c.CoverURL, c.Actor, c.Studio, c.Platform, c.Notes, c.ID)
		return translate(err, "update clip")
	})
	if err != nil {
		return catalog.Clip{}, err
	}
	return c, nil
}

// DeleteClip returns ENOTFOUND when no clip has the id.
func (s *Store) DeleteClip(ctx context.Context, id int64) error {
	res, err := s.writer.ExecContext(ctx, `DELETE FROM clips WHERE id = ?`, id)
	if err != nil {
		return translate(err, "delete clip")
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err, "delete clip")
	} else if n == 0 {
		return notFound("clip")
	}
	return nil
}

// ImportClips inserts clips in one transaction. A clip with ID set
// replaces the clip with that id (an upsert, so the triggers keep the
// index and counts right); a zero CreatedAt means now. The assigned ID
// and CreatedAt are written back into the slice.
func (s *Store) ImportClips(ctx context.Context, clips []catalog.Clip) error {
	if len(clips) == 0 {
		return nil
	}
	created := now()
	return s.writeTx(ctx, "import clips", func(tx *sql.Tx) error {
		insert, err := tx.PrepareContext(ctx, insertClip)
		if err != nil {
			return translate(err, "import clips")
		}
		defer insert.Close()
		upsert, err := tx.PrepareContext(ctx, `INSERT INTO clips (id, title, title_fold, iframe_url, cover_url, actor, studio, platform, notes, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET title = excluded.title, title_fold = excluded.title_fold,
iframe_url = excluded.iframe_url, cover_url = excluded.cover_url, actor = excluded.actor,
studio = excluded.studio, platform = excluded.platform, notes = excluded.notes, created_at = excluded.created_at`)
		if err != nil {
			return translate(err, "import clips")
		}
		defer upsert.Close()
		for i := range clips {
			c := &clips[i]
			if c.CreatedAt.IsZero() {
				c.CreatedAt = created
			} else {
				c.CreatedAt = c.CreatedAt.UTC().Truncate(time.Second)
			}
			fold := catalog.Fold(c.Title)
			if c.ID > 0 {
				if _, err := upsert.ExecContext(ctx, c.ID, c.Title, fold, c.IframeURL, c.CoverURL, c.Actor, c.Studio, c.Platform, c.Notes, c.CreatedAt.Unix()); err != nil {
					return translate(err, "import clips")
				}
				continue
			}
			res, err := insert.ExecContext(ctx, c.Title, fold, c.IframeURL, c.CoverURL, c.Actor, c.Studio, c.Platform, c.Notes, c.CreatedAt.Unix())
			if err != nil {
				return translate(err, "import clips")
			}
			if c.ID, err = res.LastInsertId(); err != nil {
				return translate(err, "import clips")
			}
		}
		return flushPending(ctx, tx, "clips", "title_fold")
	})
}
