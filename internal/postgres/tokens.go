package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/catalog"
)

// CreateToken assigns t.ID and t.CreatedAt.
func (s *Store) CreateToken(ctx context.Context, t *catalog.APIToken) error {
	created := catalog.StoredNow()
	err := s.pool.QueryRow(ctx,
		`INSERT INTO api_tokens (name, scopes, token_hash, created_at, admin_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		t.Name, strings.Join(t.Scopes, ","), t.TokenHash, created, t.AdminID).Scan(&t.ID)
	if err != nil {
		return translate(err, "create token")
	}
	t.CreatedAt = created
	return nil
}

const tokenColumns = `id, name, scopes, token_hash, created_at, last_used, revoked_at, admin_id`

func scanToken(row pgx.Row) (catalog.APIToken, error) {
	var t catalog.APIToken
	var scopes string
	var used, revoked *time.Time
	if err := row.Scan(&t.ID, &t.Name, &scopes, &t.TokenHash, &t.CreatedAt, &used, &revoked, &t.AdminID); err != nil {
		return t, err
	}
	t.Scopes = strings.Split(scopes, ",")
	t.CreatedAt = t.CreatedAt.UTC()
	if used != nil {
		t.LastUsed = used.UTC()
	}
	if revoked != nil {
		t.RevokedAt = revoked.UTC()
	}
	return t, nil
}

// ListTokens returns every token, revoked ones included, oldest first.
func (s *Store) ListTokens(ctx context.Context) ([]catalog.APIToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tokenColumns+` FROM api_tokens ORDER BY id`)
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
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`, tokenHash))
	if err == pgx.ErrNoRows {
		return t, notFound("token")
	}
	return t, translate(err, "get token")
}

// TouchToken records a use.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE api_tokens SET last_used = $1 WHERE id = $2`, catalog.StoredTime(at), id)
	return translate(err, "touch token")
}

// RevokeToken stamps the token revoked; ENOTFOUND when there is no
// live token with that id.
func (s *Store) RevokeToken(ctx context.Context, id int64) error {
	tag, err := s.pool.Exec(ctx, `UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, catalog.StoredNow(), id)
	if err != nil {
		return translate(err, "revoke token")
	}
	if tag.RowsAffected() == 0 {
		return notFound("token")
	}
	return nil
}
