package sqlstore

import (
	"context"
)

// SetAdminLanguage saves the administrator's console language;
// ENOTFOUND when there is none.
func (m Methods) SetAdminLanguage(ctx context.Context, adminID int64, language string) error {
	return m.change(ctx, "set admin language", "administrator", `UPDATE admins SET language = $1 WHERE id = $2`, language, adminID)
}

// DeleteSession is idempotent: logging out twice is not an error.
func (m Methods) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := m.DB.Exec(ctx, "delete session", `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
	return err
}

// UnlockLogin deletes every failure of username.
func (m Methods) UnlockLogin(ctx context.Context, username string) (int64, error) {
	return m.DB.Exec(ctx, "unlock login", `DELETE FROM login_failures WHERE username = $1`, username)
}
