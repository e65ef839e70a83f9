package sqlite

import (
	"context"
	"database/sql"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// DeleteExpiredSessions removes the sessions catalog.Session.Expired
// reports at now.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.writer.ExecContext(ctx, `DELETE FROM sessions WHERE last_seen < ? OR created_at < ?`,
		ceilUnix(now.Add(-catalog.SessionIdle)), ceilUnix(now.Add(-catalog.SessionAbsolute)))
	return translate(err, "delete expired sessions")
}

// Login attempts are kept in microseconds, the precision PostgreSQL has.

// ReserveLogin counts the attempt as failed unless a limit holds it
// (ETOOMANY). The check and the insert run in one write transaction:
// the single writer connection, and BEGIN IMMEDIATE against other
// processes, make them one atomic step.
func (s *Store) ReserveLogin(ctx context.Context, username, addr string, at time.Time) error {
	if err := catalog.CheckLoginUsername(username); err != nil {
		return err
	}
	args := []any{username, addr, at.Add(-catalog.LoginWindow).UnixMicro(), at.Add(-catalog.LoginKnownAddress).UnixMicro()}
	// An attempt already over a limit is refused from a reader, so that
	// a flood of refused guesses does not queue for the one writer that
	// every write of the service shares.
	if err := sqlstore.CheckLogin(ctx, db{s: s}, args); err != nil {
		return err
	}
	return s.writeTx(ctx, "reserve login", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_failures WHERE at < ?`, args[2]); err != nil {
			return translate(err, "delete old login failures")
		}
		if err := sqlstore.CheckLogin(ctx, db{s, tx}, args); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO login_failures (username, addr, at) VALUES (?, ?, ?)`, username, addr, at.UnixMicro())
		return translate(err, "record login attempt")
	})
}

// LoginSucceeded clears the pair's failures and records addr as known
// for username; successes older than catalog.LoginKnownAddress go.
func (s *Store) LoginSucceeded(ctx context.Context, username, addr string, at time.Time) error {
	return s.writeTx(ctx, "record login", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_failures WHERE username = ? AND addr = ?`, username, addr); err != nil {
			return translate(err, "clear login failures")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO login_successes (username, addr, at) VALUES (?, ?, ?)
ON CONFLICT (username, addr) DO UPDATE SET at = max(at, excluded.at)`, username, addr, at.UnixMicro()); err != nil {
			return translate(err, "record login")
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM login_successes WHERE at < ?`, at.Add(-catalog.LoginKnownAddress).UnixMicro())
		return translate(err, "delete old logins")
	})
}
