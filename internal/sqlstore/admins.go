package sqlstore

import (
	"context"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// CreateAdmin returns ECONFLICT when the username is taken. It assigns
// a.ID, and a.CreatedAt when zero.
func (m Methods) CreateAdmin(ctx context.Context, a *catalog.Admin) error {
	created := catalog.StoredTimeOr(a.CreatedAt, catalog.StoredNow())
	id, err := m.DB.Insert(ctx, "create admin", `INSERT INTO admins (username, password_hash, created_at) VALUES ($1, $2, $3) RETURNING id`,
		a.Username, a.PasswordHash, m.DB.Time(created))
	if catalog.ErrorCode(err) == catalog.ECONFLICT {
		return catalog.WithCause(&catalog.Error{Code: catalog.ECONFLICT, Message: "username " + a.Username + " is already taken"}, err)
	}
	if err != nil {
		return err
	}
	a.ID, a.CreatedAt = id, created
	return nil
}

// AdminByUsername returns ENOTFOUND when there is none.
func (m Methods) AdminByUsername(ctx context.Context, username string) (catalog.Admin, error) {
	var a catalog.Admin
	err := m.one(ctx, "get admin", "administrator", `SELECT id, username, password_hash, created_at FROM admins WHERE username = $1`,
		[]any{username}, &a.ID, &a.Username, &a.PasswordHash, m.DB.TimeDest(&a.CreatedAt))
	return a, err
}

// ListAdmins returns every administrator, oldest first, without hashes.
func (m Methods) ListAdmins(ctx context.Context) ([]catalog.Admin, error) {
	return All(ctx, m.DB, "list admins", `SELECT id, username, created_at FROM admins ORDER BY id`, nil,
		func(row Scanner, a *catalog.Admin) error {
			return row.Scan(&a.ID, &a.Username, m.DB.TimeDest(&a.CreatedAt))
		})
}

// DeleteAdmin removes the administrator and revokes the live tokens
// they made, in one transaction, and returns how many; the sessions go
// with it (ON DELETE CASCADE). ENOTFOUND when there is none.
func (m Methods) DeleteAdmin(ctx context.Context, username string) (revoked int64, err error) {
	err = m.DB.Tx(ctx, "delete admin", func(tx DB) error {
		var id int64
		if err := (Methods{tx}).one(ctx, "delete admin", "administrator", `DELETE FROM admins WHERE username = $1 RETURNING id`,
			[]any{username}, &id); err != nil {
			return err
		}
		revoked, err = tx.Exec(ctx, "delete admin", `UPDATE api_tokens SET revoked_at = $1 WHERE admin_id = $2 AND revoked_at IS `+tx.Unset(),
			tx.Time(catalog.StoredNow()), id)
		return err
	})
	return revoked, err
}

// SetAdminPassword replaces the hash and ends the administrator's
// sessions in one transaction; ENOTFOUND when there is none.
func (m Methods) SetAdminPassword(ctx context.Context, username, passwordHash string) (ended int64, err error) {
	err = m.DB.Tx(ctx, "set admin password", func(tx DB) error {
		if err := (Methods{tx}).change(ctx, "set admin password", "administrator", `UPDATE admins SET password_hash = $1 WHERE username = $2`,
			passwordHash, username); err != nil {
			return err
		}
		ended, err = tx.Exec(ctx, "end sessions", `DELETE FROM sessions WHERE admin_id = (SELECT id FROM admins WHERE username = $1)`, username)
		return err
	})
	return ended, err
}

// SetAdminLanguage saves the administrator's console language;
// ENOTFOUND when there is none.
func (m Methods) SetAdminLanguage(ctx context.Context, adminID int64, language string) error {
	return m.change(ctx, "set admin language", "administrator", `UPDATE admins SET language = $1 WHERE id = $2`, language, adminID)
}

// CreateSession stores a session (times in whole seconds); the token
// itself is never stored.
func (m Methods) CreateSession(ctx context.Context, sess catalog.Session) error {
	_, err := m.DB.Exec(ctx, "create session", `INSERT INTO sessions (token_hash, admin_id, created_at, last_seen) VALUES ($1, $2, $3, $4)`,
		sess.TokenHash, sess.AdminID, m.DB.Time(catalog.StoredTime(sess.CreatedAt)), m.DB.Time(catalog.StoredTime(sess.LastSeen)))
	return err
}

// SessionByTokenHash returns the session with Username filled, or
// ENOTFOUND; it does not check expiry.
func (m Methods) SessionByTokenHash(ctx context.Context, tokenHash string) (catalog.Session, error) {
	var sess catalog.Session
	err := m.one(ctx, "get session", "session", `SELECT s.token_hash, s.admin_id, a.username, a.language, s.created_at, s.last_seen
FROM sessions s JOIN admins a ON a.id = s.admin_id WHERE s.token_hash = $1`, []any{tokenHash},
		&sess.TokenHash, &sess.AdminID, &sess.Username, &sess.Language, m.DB.TimeDest(&sess.CreatedAt), m.DB.TimeDest(&sess.LastSeen))
	return sess, err
}

// TouchSession records activity; ENOTFOUND when the session is gone.
func (m Methods) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	return m.change(ctx, "touch session", "session", `UPDATE sessions SET last_seen = $1 WHERE token_hash = $2`,
		m.DB.Time(catalog.StoredTime(at)), tokenHash)
}

// DeleteSession is idempotent: logging out twice is not an error.
func (m Methods) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := m.DB.Exec(ctx, "delete session", `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
	return err
}

// CheckLogin is ETOOMANY when a limit holds an attempt
// (catalog.LoginCounts): args are the username, the address, the start
// of the window and the start of the known-address period, the times
// as the engine stores login times (to the microsecond).
func CheckLogin(ctx context.Context, db DB, args []any) error {
	var c catalog.LoginCounts
	err := (Methods{db}).one(ctx, "count login failures", "", `SELECT
	(SELECT count(*) FROM login_failures WHERE username = $1 AND addr = $2 AND at >= $3),
	(SELECT count(*) FROM login_failures WHERE addr = $2 AND at >= $3),
	(SELECT count(*) FROM login_failures WHERE username = $1 AND at >= $3),
	EXISTS (SELECT 1 FROM login_successes WHERE username = $1 AND addr = $2 AND at >= $4)`, args,
		&c.Pair, &c.Address, &c.Username, &c.KnownAddress)
	if err != nil {
		return err
	}
	return c.Check()
}

// UnlockLogin deletes every failure of username.
func (m Methods) UnlockLogin(ctx context.Context, username string) (int64, error) {
	return m.DB.Exec(ctx, "unlock login", `DELETE FROM login_failures WHERE username = $1`, username)
}

// CreateToken assigns t.ID and t.CreatedAt.
func (m Methods) CreateToken(ctx context.Context, t *catalog.APIToken) error {
	created := catalog.StoredNow()
	id, err := m.DB.Insert(ctx, "create token", `INSERT INTO api_tokens (name, scopes, token_hash, created_at, admin_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		t.Name, strings.Join(t.Scopes, ","), t.TokenHash, m.DB.Time(created), t.AdminID)
	if err != nil {
		return err
	}
	t.ID, t.CreatedAt = id, created
	return nil
}

const tokenColumns = `id, name, scopes, token_hash, created_at, last_used, revoked_at, admin_id`

func (m Methods) scanToken(row Scanner, t *catalog.APIToken) error {
	var scopes string
	err := row.Scan(&t.ID, &t.Name, &scopes, &t.TokenHash, m.DB.TimeDest(&t.CreatedAt), m.DB.TimeDest(&t.LastUsed),
		m.DB.TimeDest(&t.RevokedAt), &t.AdminID)
	t.Scopes = strings.Split(scopes, ",")
	return err
}

// ListTokens returns every token, revoked ones included, oldest first.
func (m Methods) ListTokens(ctx context.Context) ([]catalog.APIToken, error) {
	return All(ctx, m.DB, "list tokens", `SELECT `+tokenColumns+` FROM api_tokens ORDER BY id`, nil, m.scanToken)
}

// TokenByHash returns ENOTFOUND for unknown or revoked tokens.
func (m Methods) TokenByHash(ctx context.Context, tokenHash string) (catalog.APIToken, error) {
	return first(ctx, m.DB, "get token", "token", `SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = $1 AND revoked_at IS `+m.DB.Unset(),
		[]any{tokenHash}, m.scanToken)
}

// TouchToken records a use.
func (m Methods) TouchToken(ctx context.Context, id int64, at time.Time) error {
	_, err := m.DB.Exec(ctx, "touch token", `UPDATE api_tokens SET last_used = $1 WHERE id = $2`, m.DB.Time(catalog.StoredTime(at)), id)
	return err
}

// RevokeToken stamps the token revoked; ENOTFOUND when there is no
// live token with that id.
func (m Methods) RevokeToken(ctx context.Context, id int64) error {
	return m.change(ctx, "revoke token", "token", `UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS `+m.DB.Unset(),
		m.DB.Time(catalog.StoredNow()), id)
}
