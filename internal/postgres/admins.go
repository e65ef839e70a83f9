package postgres

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
	"catalog/internal/sqlstore"
)

// DeleteExpiredSessions removes sessions past their idle or absolute
// lifetime at now (the rule of catalog.Session.Expired).
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE last_seen < $1 OR created_at < $2`,
		now.Add(-catalog.SessionIdle), now.Add(-catalog.SessionAbsolute))
	return translate(err, "delete expired sessions")
}

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
	// An attempt already over a limit is refused without the locks, so
	// that a flood of refused guesses does not queue in front of the
	// administrator's own attempt. Failure times keep microseconds, as
	// in internal/sqlite.
	if err := sqlstore.CheckLogin(ctx, db{s: s}, args); err != nil {
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
		if err := sqlstore.CheckLogin(ctx, db{s, tx}, args); err != nil {
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
