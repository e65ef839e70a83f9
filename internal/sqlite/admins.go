package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
)

// CreateAdmin returns ECONFLICT when the username is taken. It assigns
// a.ID, and a.CreatedAt when zero.
func (s *Store) CreateAdmin(ctx context.Context, a *catalog.Admin) error {
	created := now()
	if !a.CreatedAt.IsZero() {
		created = a.CreatedAt.UTC().Truncate(time.Second)
	}
	res, err := s.writer.ExecContext(ctx,
		`INSERT INTO admins (username, password_hash, created_at) VALUES (?, ?, ?)`,
		a.Username, a.PasswordHash, created.Unix())
	if err != nil {
		if catalog.ErrorCode(translate(err, "")) == catalog.ECONFLICT {
			return wrapped(catalog.ECONFLICT, "username "+a.Username+" is already taken", err)
		}
		return translate(err, "create admin")
	}
	id, err := res.LastInsertId()
	if err != nil {
		return translate(err, "create admin")
	}
	a.ID, a.CreatedAt = id, created
	return nil
}

// AdminByUsername returns ENOTFOUND when there is none.
func (s *Store) AdminByUsername(ctx context.Context, username string) (catalog.Admin, error) {
	var a catalog.Admin
	var created int64
	err := s.reader.QueryRowContext(ctx,
		`SELECT id, username, password_hash, created_at FROM admins WHERE username = ?`, username).
		Scan(&a.ID, &a.Username, &a.PasswordHash, &created)
	if err == sql.ErrNoRows {
		return a, notFound("administrator")
	}
	if err != nil {
		return a, translate(err, "get admin")
	}
	a.CreatedAt = unixTime(created)
	return a, nil
}

// CreateSession stores s (times in whole seconds).
func (s *Store) CreateSession(ctx context.Context, sess catalog.Session) error {
	_, err := s.writer.ExecContext(ctx,
		`INSERT INTO sessions (token_hash, admin_id, created_at, last_seen) VALUES (?, ?, ?, ?)`,
		sess.TokenHash, sess.AdminID, sess.CreatedAt.Unix(), sess.LastSeen.Unix())
	return translate(err, "create session")
}

// SessionByTokenHash returns the session with Username filled, or
// ENOTFOUND; it does not check expiry.
func (s *Store) SessionByTokenHash(ctx context.Context, tokenHash string) (catalog.Session, error) {
	st, err := s.prepared(ctx, `SELECT s.token_hash, s.admin_id, a.username, s.created_at, s.last_seen
FROM sessions s JOIN admins a ON a.id = s.admin_id WHERE s.token_hash = ?`)
	if err != nil {
		return catalog.Session{}, err
	}
	var sess catalog.Session
	var created, seen int64
	err = st.QueryRowContext(ctx, tokenHash).Scan(&sess.TokenHash, &sess.AdminID, &sess.Username, &created, &seen)
	if err == sql.ErrNoRows {
		return sess, notFound("session")
	}
	if err != nil {
		return sess, translate(err, "get session")
	}
	sess.CreatedAt, sess.LastSeen = unixTime(created), unixTime(seen)
	return sess, nil
}

// TouchSession records activity; ENOTFOUND when the session is gone.
func (s *Store) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	res, err := s.writer.ExecContext(ctx, `UPDATE sessions SET last_seen = ? WHERE token_hash = ?`, at.Unix(), tokenHash)
	if err != nil {
		return translate(err, "touch session")
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err, "touch session")
	} else if n == 0 {
		return notFound("session")
	}
	return nil
}

// DeleteSession is idempotent: logging out twice is not an error.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := s.writer.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
	return translate(err, "delete session")
}

// DeleteExpiredSessions removes the sessions catalog.Session.Expired
// reports at now.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.writer.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen < ? OR created_at < ?`,
		ceilUnix(now.Add(-catalog.SessionIdle)), ceilUnix(now.Add(-catalog.SessionAbsolute)))
	return translate(err, "delete expired sessions")
}

// Login failures are kept in microseconds, the precision PostgreSQL has.

// AddLoginFailure records a failure under key at at and counts the
// failures under key since since, in one transaction.
func (s *Store) AddLoginFailure(ctx context.Context, key string, at, since time.Time) (int, error) {
	var n int
	err := s.writeTx(ctx, "record login failure", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO login_failures (key, at) VALUES (?, ?)`, key, at.UnixMicro()); err != nil {
			return translate(err, "record login failure")
		}
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM login_failures WHERE key = ? AND at >= ?`, key, since.UnixMicro()).Scan(&n)
		return translate(err, "count login failures")
	})
	return n, err
}

// LoginFailures counts failures under key since since.
func (s *Store) LoginFailures(ctx context.Context, key string, since time.Time) (int, error) {
	var n int
	err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM login_failures WHERE key = ? AND at >= ?`, key, since.UnixMicro()).Scan(&n)
	return n, translate(err, "count login failures")
}

// ClearLoginFailures forgets key's failures.
func (s *Store) ClearLoginFailures(ctx context.Context, key string) error {
	_, err := s.writer.ExecContext(ctx, `DELETE FROM login_failures WHERE key = ?`, key)
	return translate(err, "clear login failures")
}
