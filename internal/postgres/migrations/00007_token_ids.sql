-- +goose Up
-- API tokens keep their ids for good (contract 8), as in internal/sqlite:
-- a revoked token stays as a row with its revocation time, and the
-- identity's sequence is never rewound, so a stale "token revoke N" can
-- never reach a newer token.
ALTER TABLE api_tokens ADD COLUMN revoked_at timestamptz;

-- +goose Down
DELETE FROM api_tokens WHERE revoked_at IS NOT NULL;
ALTER TABLE api_tokens DROP COLUMN revoked_at;
