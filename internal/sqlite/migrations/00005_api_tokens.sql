-- API tokens for scripts (contract 8). Only a hash of each secret is
-- stored; scopes are a comma-separated subset of catalog.Scopes().
-- Revoking deletes the row, so every instance refuses the token on its
-- next request.

-- +goose Up
CREATE TABLE api_tokens (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    scopes     TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used  INTEGER NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE api_tokens;
