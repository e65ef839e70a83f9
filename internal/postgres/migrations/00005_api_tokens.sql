-- +goose Up
-- API tokens for scripts (contract 8), as in internal/sqlite: only a
-- hash of each secret; revoking deletes the row.
CREATE TABLE api_tokens (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL,
    scopes     text        NOT NULL,
    token_hash text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    last_used  timestamptz
);

-- +goose Down
DROP TABLE api_tokens;
