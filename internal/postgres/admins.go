package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// CreateAdmin returns ECONFLICT when the username is taken. It assigns
// a.ID, and a.CreatedAt when zero (whole seconds, like every stored time
// but login failures).
func (s *Store) CreateAdmin(ctx context.Context, a *catalog.Admin) error {
	created := time.Now().UTC().Truncate(time.Second)
	if !a.CreatedAt.IsZero() {
		created = a.CreatedAt.UTC().Truncate(time.Second)
	}
	var id int64
	err := s.pool.QueryRow(ctx,
		`INSERT INTO admins (username, password_hash, created_at) VALUES ($1, $2, $3) RETURNING id`,
		a.Username, a.PasswordHash, created).Scan(&id)
	if pgCode(err) == "23505" {
		return withCode(catalog.ECONFLICT, "username "+a.Username+" is already taken", "create admin", err)
	}
	if err != nil {
		return translate(err, "create admin")
	}
	a.ID, a.CreatedAt = id, created
	return nil
}

// AdminByUsername returns ENOTFOUND when there is none.
func (s *Store) AdminByUsername(ctx context.Context, username string) (catalog.Admin, error) {
	var a catalog.Admin
	err := s.pool.QueryRow(ctx,
		`SELECT id, username, password_hash, created_at FROM admins WHERE username = $1`, username,
	).Scan(&a.ID, &a.Username, &a.PasswordHash, &a.CreatedAt)
	if err == pgx.ErrNoRows {
		return a, notFound("administrator")
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, translate(err, "get admin")
}

// CreateSession stores a session (times in whole seconds); the token
// itself is never stored.
func (s *Store) CreateSession(ctx context.Context, sess catalog.Session) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO sessions (token_hash, admin_id, created_at, last_seen) VALUES ($1, $2, $3, $4)`,
		sess.TokenHash, sess.AdminID, seconds(sess.CreatedAt), seconds(sess.LastSeen))
	return translate(err, "create session")
}

// SessionByTokenHash returns ENOTFOUND for unknown tokens; it does not
// check expiry.
func (s *Store) SessionByTokenHash(ctx context.Context, tokenHash string) (catalog.Session, error) {
	var sess catalog.Session
	err := s.pool.QueryRow(ctx, `
		SELECT s.token_hash, s.admin_id, a.username, s.created_at, s.last_seen
		FROM sessions s JOIN admins a ON a.id = s.admin_id
		WHERE s.token_hash = $1`, tokenHash,
	).Scan(&sess.TokenHash, &sess.AdminID, &sess.Username, &sess.CreatedAt, &sess.LastSeen)
	if err == pgx.ErrNoRows {
		return sess, notFound("session")
	}
	sess.CreatedAt, sess.LastSeen = sess.CreatedAt.UTC(), sess.LastSeen.UTC()
	return sess, translate(err, "get session")
}

// TouchSession records activity; ENOTFOUND when the session is gone.
func (s *Store) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE sessions SET last_seen = $2 WHERE token_hash = $1`, tokenHash, seconds(at))
	if err != nil {
		return translate(err, "touch session")
	}
	if tag.RowsAffected() == 0 {
		return notFound("session")
	}
	return nil
}

// DeleteSession ends a session; ending one that is already gone is not
// an error (logging out twice is harmless).
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
	return translate(err, "delete session")
}

// DeleteExpiredSessions removes sessions past their idle or absolute
// lifetime at now (the rule of catalog.Session.Expired).
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE last_seen < $1 OR created_at < $2`,
		now.Add(-catalog.SessionIdle), now.Add(-catalog.SessionAbsolute))
	return translate(err, "delete expired sessions")
}

// AddLoginFailure records a failure under key and returns the failures
// under key since since, in one transaction. Failure times keep
// microseconds, as in internal/sqlite.
func (s *Store) AddLoginFailure(ctx context.Context, key string, at, since time.Time) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO login_failures (key, at) VALUES ($1, $2)`, key, at); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT count(*) FROM login_failures WHERE key = $1 AND at >= $2`, key, since).Scan(&n)
	})
	return n, translate(err, "add login failure")
}

// LoginFailures counts failures under key since since.
func (s *Store) LoginFailures(ctx context.Context, key string, since time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM login_failures WHERE key = $1 AND at >= $2`, key, since).Scan(&n)
	return n, translate(err, "count login failures")
}

// ClearLoginFailures forgets key's failures (after a good login).
func (s *Store) ClearLoginFailures(ctx context.Context, key string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE key = $1`, key)
	return translate(err, "clear login failures")
}

// seconds drops the fraction, the precision every engine keeps.
func seconds(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
