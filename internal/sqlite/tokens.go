package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// CreateToken assigns t.ID and t.CreatedAt.
func (s *Store) CreateToken(ctx context.Context, t *catalog.APIToken) error {
	created := now()
	res, err := s.writer.ExecContext(ctx,
		`INSERT INTO api_tokens (name, scopes, token_hash, created_at, admin_id) VALUES (?, ?, ?, ?, ?)`,
		t.Name, strings.Join(t.Scopes, ","), t.TokenHash, created.Unix(), t.AdminID)
	if err != nil {
		return translate(err, "create token")
	}
	id, err := res.LastInsertId()
	if err != nil {
		return translate(err, "create token")
	}
	t.ID, t.CreatedAt = id, created
	return nil
}

const tokenColumns = `id, name, scopes, token_hash, created_at, last_used, revoked_at, admin_id`

func scanToken(row interface{ Scan(...any) error }) (catalog.APIToken, error) {
	var t catalog.APIToken
	var scopes string
	var created, used, revoked int64
	if err := row.Scan(&t.ID, &t.Name, &scopes, &t.TokenHash, &created, &used, &revoked, &t.AdminID); err != nil {
		return t, err
	}
	t.Scopes = strings.Split(scopes, ",")
	t.CreatedAt = unixTime(created)
	if used != 0 {
		t.LastUsed = unixTime(used)
	}
	if revoked != 0 {
		t.RevokedAt = unixTime(revoked)
	}
	return t, nil
}

// ListTokens returns every token, revoked ones included, oldest first.
func (s *Store) ListTokens(ctx context.Context) ([]catalog.APIToken, error) {
	if err := s.takeReader(ctx, "list tokens"); err != nil {
		return nil, err
	}
	defer s.readSlots.Release(1)
	rows, err := s.reader.QueryContext(ctx, `SELECT `+tokenColumns+` FROM api_tokens ORDER BY id`)
	if err != nil {
		return nil, translate(err, "list tokens")
	}
	defer rows.Close()
	var out []catalog.APIToken
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, translate(err, "list tokens")
		}
		out = append(out, t)
	}
	return out, translate(rows.Err(), "list tokens")
}

// TokenByHash returns ENOTFOUND for unknown or revoked tokens.
func (s *Store) TokenByHash(ctx context.Context, tokenHash string) (catalog.APIToken, error) {
	if err := s.takeReader(ctx, "get token"); err != nil {
		return catalog.APIToken{}, err
	}
	defer s.readSlots.Release(1)
	t, err := scanToken(s.reader.QueryRowContext(ctx,
		`SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = ? AND revoked_at = 0`, tokenHash))
	if err == sql.ErrNoRows {
		return t, notFound("token")
	}
	return t, translate(err, "get token")
}

// TouchToken records a use.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time) error {
	_, err := s.writer.ExecContext(ctx, `UPDATE api_tokens SET last_used = ? WHERE id = ?`, at.Unix(), id)
	return translate(err, "touch token")
}

// RevokeToken stamps the token revoked; ENOTFOUND when there is no
// live token with that id.
func (s *Store) RevokeToken(ctx context.Context, id int64) error {
	res, err := s.writer.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at = 0`, now().Unix(), id)
	if err != nil {
		return translate(err, "revoke token")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return translate(err, "revoke token")
		}
		return notFound("token")
	}
	return nil
}
