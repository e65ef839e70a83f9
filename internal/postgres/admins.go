package postgres

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// CreateAdmin returns ECONFLICT when the username is taken. It assigns
// a.ID, and a.CreatedAt when zero (whole seconds, like every stored time
// but login failures).
func (s *Store) CreateAdmin(ctx context.Context, a *catalog.Admin) error {
	created := catalog.StoredTimeOr(a.CreatedAt, catalog.StoredNow())
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

// ListAdmins returns every administrator, oldest first, without hashes.
func (s *Store) ListAdmins(ctx context.Context) ([]catalog.Admin, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, username, created_at FROM admins ORDER BY id`)
	if err != nil {
		return nil, translate(err, "list admins")
	}
	defer rows.Close()
	var out []catalog.Admin
	for rows.Next() {
		var a catalog.Admin
		if err := rows.Scan(&a.ID, &a.Username, &a.CreatedAt); err != nil {
			return nil, translate(err, "list admins")
		}
		a.CreatedAt = a.CreatedAt.UTC()
		out = append(out, a)
	}
	return out, translate(rows.Err(), "list admins")
}

// DeleteAdmin removes the administrator and revokes the live tokens
// they made, in one statement, and returns how many; the sessions go
// with it (ON DELETE CASCADE). ENOTFOUND when there is none.
func (s *Store) DeleteAdmin(ctx context.Context, username string) (int64, error) {
	var deleted bool
	var revoked int64
	err := s.pool.QueryRow(ctx, `WITH gone AS (DELETE FROM admins WHERE username = $1 RETURNING id),
revoked AS (UPDATE api_tokens SET revoked_at = $2 WHERE admin_id IN (SELECT id FROM gone) AND revoked_at IS NULL RETURNING id)
SELECT EXISTS (SELECT 1 FROM gone), (SELECT count(*) FROM revoked)`, username, catalog.StoredNow()).Scan(&deleted, &revoked)
	if err != nil {
		return 0, translate(err, "delete admin")
	}
	if !deleted {
		return 0, notFound("administrator")
	}
	return revoked, nil
}

// SetAdminPassword replaces the hash and ends the administrator's
// sessions in one transaction; ENOTFOUND when there is none.
func (s *Store) SetAdminPassword(ctx context.Context, username, passwordHash string) (int64, error) {
	var ended int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `UPDATE admins SET password_hash = $1 WHERE username = $2 RETURNING id`, passwordHash, username).Scan(&id)
		if err == pgx.ErrNoRows {
			return notFound("administrator")
		}
		if err != nil {
			return translate(err, "set admin password")
		}
		tag, err := tx.Exec(ctx, `DELETE FROM sessions WHERE admin_id = $1`, id)
		ended = tag.RowsAffected()
		return translate(err, "end sessions")
	})
	return ended, err
}

// CreateSession stores a session (times in whole seconds); the token
// itself is never stored.
func (s *Store) CreateSession(ctx context.Context, sess catalog.Session) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO sessions (token_hash, admin_id, created_at, last_seen) VALUES ($1, $2, $3, $4)`,
		sess.TokenHash, sess.AdminID, catalog.StoredTime(sess.CreatedAt), catalog.StoredTime(sess.LastSeen))
	return translate(err, "create session")
}

// SessionByTokenHash returns ENOTFOUND for unknown tokens; it does not
// check expiry.
func (s *Store) SessionByTokenHash(ctx context.Context, tokenHash string) (catalog.Session, error) {
	var sess catalog.Session
	err := s.pool.QueryRow(ctx, `
		SELECT s.token_hash, s.admin_id, a.username, a.language, s.created_at, s.last_seen
		FROM sessions s JOIN admins a ON a.id = s.admin_id
		WHERE s.token_hash = $1`, tokenHash,
	).Scan(&sess.TokenHash, &sess.AdminID, &sess.Username, &sess.Language, &sess.CreatedAt, &sess.LastSeen)
	if err == pgx.ErrNoRows {
		return sess, notFound("session")
	}
	sess.CreatedAt, sess.LastSeen = sess.CreatedAt.UTC(), sess.LastSeen.UTC()
	return sess, translate(err, "get session")
}

// TouchSession records activity; ENOTFOUND when the session is gone.
func (s *Store) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE sessions SET last_seen = $2 WHERE token_hash = $1`, tokenHash, catalog.StoredTime(at))
	if err != nil {
		return translate(err, "touch session")
	}
	if tag.RowsAffected() == 0 {
		return notFound("session")
	}
	return nil
}

// DeleteExpiredSessions removes sessions past their idle or absolute
// lifetime at now (the rule of catalog.Session.Expired).
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE last_seen < $1 OR created_at < $2`,
		now.Add(-catalog.SessionIdle), now.Add(-catalog.SessionAbsolute))
	return translate(err, "delete expired sessions")
}

// loginCountsSQL counts the failures that bear on an attempt
// (catalog.LoginCounts): $1 username, $2 address, $3 start of the
// window, $4 start of the known-address period. Failure times keep
// microseconds, as in internal/sqlite.
const loginCountsSQL = `SELECT
	(SELECT count(*) FROM login_failures WHERE username = $1 AND addr = $2 AND at >= $3),
	(SELECT count(*) FROM login_failures WHERE addr = $2 AND at >= $3),
	(SELECT count(*) FROM login_failures WHERE username = $1 AND at >= $3),
	EXISTS (SELECT 1 FROM login_successes WHERE username = $1 AND addr = $2 AND at >= $4)`

// ReserveLogin counts the attempt as failed unless a limit holds it
// (ETOOMANY). Under READ COMMITTED a count and an insert are not one
// step, so the transaction first takes advisory locks on the username
// and on the address: every attempt that shares either with this one,
// from any instance, waits until this one has committed its row and so
// counts it.
func (s *Store) ReserveLogin(ctx context.Context, username, addr string, at time.Time) error {
	if err := catalog.CheckLoginUsername(username); err != nil {
		return err
	}
	since := at.Add(-catalog.LoginWindow)
	args := []any{username, addr, since, at.Add(-catalog.LoginKnownAddress)}
	counts := func(q interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}) error {
		var c catalog.LoginCounts
		if err := q.QueryRow(ctx, loginCountsSQL, args...).Scan(&c.Pair, &c.Address, &c.Username, &c.KnownAddress); err != nil {
			return translate(err, "count login failures")
		}
		return c.Check()
	}
	// An attempt already over a limit is refused without the locks, so
	// that a flood of refused guesses does not queue in front of the
	// administrator's own attempt.
	if err := counts(s.pool); err != nil {
		return err
	}
	// Old rows go in a statement of their own: SKIP LOCKED lets two
	// attempts clean up at once without waiting for (or deadlocking
	// on) each other's rows.
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE id IN
		(SELECT id FROM login_failures WHERE at < $1 FOR UPDATE SKIP LOCKED)`, since); err != nil {
		return translate(err, "delete old login failures")
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		for _, key := range loginLockKeys(username, addr) {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, key); err != nil {
				return err
			}
		}
		if err := counts(tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO login_failures (username, addr, at) VALUES ($1, $2, $3)`, username, addr, at)
		return err
	})
	return translate(err, "reserve login")
}

// loginLockKeys are the advisory lock keys of an attempt's username and
// address, in ascending order: every transaction takes its two locks in
// the same order, so two attempts never wait for each other in a cycle.
func loginLockKeys(username, addr string) [2]int64 {
	key := func(s string) int64 {
		h := fnv.New64a()
		h.Write([]byte(s))
		return int64(h.Sum64())
	}
	a, b := key("login username\x00"+username), key("login addr\x00"+addr)
	if a > b {
		a, b = b, a
	}
	return [2]int64{a, b}
}

// LoginSucceeded clears the pair's failures and records addr as known
// for username; successes older than catalog.LoginKnownAddress go.
func (s *Store) LoginSucceeded(ctx context.Context, username, addr string, at time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE username = $1 AND addr = $2`, username, addr); err != nil {
		return translate(err, "clear login failures")
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO login_successes (username, addr, at) VALUES ($1, $2, $3)
		ON CONFLICT (username, addr) DO UPDATE SET at = greatest(login_successes.at, excluded.at)`, username, addr, at); err != nil {
		return translate(err, "record login")
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM login_successes WHERE (username, addr) IN
		(SELECT username, addr FROM login_successes WHERE at < $1 FOR UPDATE SKIP LOCKED)`, at.Add(-catalog.LoginKnownAddress))
	return translate(err, "delete old logins")
}
