-- API tokens keep their ids for good (contract 8): a revoked token stays
-- as a row with its revocation time, and AUTOINCREMENT numbers a new
-- token above every id ever used, so a stale "token revoke N" can never
-- reach a newer token. SQLite cannot add AUTOINCREMENT to a table, so
-- the table is copied into one that has it.

-- +goose Up
CREATE TABLE api_tokens_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    scopes     TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used  INTEGER NOT NULL DEFAULT 0,
    revoked_at INTEGER NOT NULL DEFAULT 0 -- unix seconds; 0: live
);
INSERT INTO api_tokens_new (id, name, scopes, token_hash, created_at, last_used)
SELECT id, name, scopes, token_hash, created_at, last_used FROM api_tokens;
DROP TABLE api_tokens;
ALTER TABLE api_tokens_new RENAME TO api_tokens;

-- +goose Down
CREATE TABLE api_tokens_old (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    scopes     TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO api_tokens_old (id, name, scopes, token_hash, created_at, last_used)
SELECT id, name, scopes, token_hash, created_at, last_used FROM api_tokens WHERE revoked_at = 0;
DROP TABLE api_tokens;
ALTER TABLE api_tokens_old RENAME TO api_tokens;
