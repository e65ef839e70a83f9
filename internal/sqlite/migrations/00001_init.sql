-- The whole first schema. Totals and the data version are kept by
-- triggers so that every writer (this process, `catalog import` in
-- another, a hand-written INSERT) keeps them right.

-- +goose Up

-- One row: data_version changes on every clip or movie write (caches key
-- on it); movie_count is the exact number of movies.
CREATE TABLE meta (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    data_version INTEGER NOT NULL,
    movie_count  INTEGER NOT NULL
);
INSERT INTO meta (id, data_version, movie_count) VALUES (1, 1, 0);

CREATE TABLE clips (
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
    title      TEXT    NOT NULL,
    title_fold TEXT    NOT NULL, -- catalog.Fold(title), computed in Go
    iframe_url TEXT    NOT NULL,
    cover_url  TEXT    NOT NULL DEFAULT '',
    actor      TEXT    NOT NULL DEFAULT '',
    studio     TEXT    NOT NULL DEFAULT '',
    platform   TEXT    NOT NULL DEFAULT '',
    notes      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL -- unix seconds, UTC
);
CREATE INDEX clips_platform_id ON clips (platform, id);

-- Exact totals per platform; the grand total is their sum (a handful of
-- rows), so a list request never counts the clips table.
CREATE TABLE clip_counts (
    platform TEXT    PRIMARY KEY,
    n        INTEGER NOT NULL
) WITHOUT ROWID;

-- Trigram phrases are substring matches, so MATCH '"abcd"' finds every
-- title containing abcd, and counts without reading the clips. That
-- needs token positions (detail=full). Titles are folded in Go, hence
-- case_sensitive.
CREATE VIRTUAL TABLE clips_fts USING fts5 (
    title_fold,
    content = 'clips',
    content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1',
    detail = 'full'
);

-- New rows reach the FTS index through a pending list that the writer
-- flushes with one INSERT ... SELECT before it commits (flushPending in
-- Go). Inserting into FTS5 from a per-row trigger makes SQLite flush the
-- FTS5 in-memory index at every statement, which made bulk imports
-- several times slower. A row still pending when it changes or goes is
-- left to the flush (it reads the current title) or dropped from the list.
CREATE TABLE clips_fts_pending (id INTEGER PRIMARY KEY);

-- +goose StatementBegin
CREATE TRIGGER clips_ai AFTER INSERT ON clips BEGIN
    INSERT INTO clips_fts_pending (id) VALUES (new.id);
    INSERT INTO clip_counts (platform, n) VALUES (new.platform, 1)
        ON CONFLICT (platform) DO UPDATE SET n = n + 1;
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_ad AFTER DELETE ON clips BEGIN
    INSERT INTO clips_fts (clips_fts, rowid, title_fold) SELECT 'delete', old.id, old.title_fold
        WHERE NOT EXISTS (SELECT 1 FROM clips_fts_pending WHERE id = old.id);
    DELETE FROM clips_fts_pending WHERE id = old.id;
    UPDATE clip_counts SET n = n - 1 WHERE platform = old.platform;
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_au AFTER UPDATE ON clips BEGIN
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_au_title AFTER UPDATE OF title_fold ON clips
WHEN old.title_fold IS NOT new.title_fold
 AND NOT EXISTS (SELECT 1 FROM clips_fts_pending WHERE id = old.id) BEGIN
    INSERT INTO clips_fts (clips_fts, rowid, title_fold) VALUES ('delete', old.id, old.title_fold);
    INSERT INTO clips_fts (rowid, title_fold) VALUES (new.id, new.title_fold);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_au_platform AFTER UPDATE OF platform ON clips
WHEN old.platform IS NOT new.platform BEGIN
    UPDATE clip_counts SET n = n - 1 WHERE platform = old.platform;
    INSERT INTO clip_counts (platform, n) VALUES (new.platform, 1)
        ON CONFLICT (platform) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- Each list field is stored in both served forms (catalog.List): X_json
-- for /api/movies, X joined with ", " for /api/jav.
CREATE TABLE movies (
    id              INTEGER PRIMARY KEY AUTOINCREMENT, -- imports may set it
    name            TEXT    NOT NULL,
    name_fold       TEXT    NOT NULL, -- catalog.Fold(name), computed in Go
    slug            TEXT    NOT NULL DEFAULT '',
    year            TEXT    NOT NULL DEFAULT '',
    poster1_url     TEXT    NOT NULL DEFAULT '',
    poster2_url     TEXT    NOT NULL DEFAULT '',
    categories_json TEXT    NOT NULL DEFAULT '[]',
    categories      TEXT    NOT NULL DEFAULT '',
    actor_json      TEXT    NOT NULL DEFAULT '[]',
    actor           TEXT    NOT NULL DEFAULT '',
    director_json   TEXT    NOT NULL DEFAULT '[]',
    director        TEXT    NOT NULL DEFAULT '',
    studio_json     TEXT    NOT NULL DEFAULT '[]',
    studio          TEXT    NOT NULL DEFAULT '',
    genre_json      TEXT    NOT NULL DEFAULT '[]',
    genre           TEXT    NOT NULL DEFAULT '',
    country_json    TEXT    NOT NULL DEFAULT '[]',
    country         TEXT    NOT NULL DEFAULT '',
    synopsis        TEXT    NOT NULL DEFAULT '',
    id_code         TEXT    NOT NULL DEFAULT '',
    release         TEXT    NOT NULL DEFAULT '',
    link_embed      TEXT    NOT NULL DEFAULT '',
    updated_at      INTEGER NOT NULL -- unix seconds, UTC
);
CREATE INDEX movies_id_code ON movies (id_code) WHERE id_code <> '';
CREATE INDEX movies_slug ON movies (slug);
CREATE INDEX movies_updated_at ON movies (updated_at);

CREATE VIRTUAL TABLE movies_fts USING fts5 (
    name_fold,
    content = 'movies',
    content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1',
    detail = 'full'
);

CREATE TABLE movies_fts_pending (id INTEGER PRIMARY KEY);

-- +goose StatementBegin
CREATE TRIGGER movies_ai AFTER INSERT ON movies BEGIN
    INSERT INTO movies_fts_pending (id) VALUES (new.id);
    UPDATE meta SET data_version = data_version + 1, movie_count = movie_count + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ad AFTER DELETE ON movies BEGIN
    INSERT INTO movies_fts (movies_fts, rowid, name_fold) SELECT 'delete', old.id, old.name_fold
        WHERE NOT EXISTS (SELECT 1 FROM movies_fts_pending WHERE id = old.id);
    DELETE FROM movies_fts_pending WHERE id = old.id;
    UPDATE meta SET data_version = data_version + 1, movie_count = movie_count - 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au AFTER UPDATE ON movies BEGIN
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au_name AFTER UPDATE OF name_fold ON movies
WHEN old.name_fold IS NOT new.name_fold
 AND NOT EXISTS (SELECT 1 FROM movies_fts_pending WHERE id = old.id) BEGIN
    INSERT INTO movies_fts (movies_fts, rowid, name_fold) VALUES ('delete', old.id, old.name_fold);
    INSERT INTO movies_fts (rowid, name_fold) VALUES (new.id, new.name_fold);
END;
-- +goose StatementEnd

CREATE TABLE admins (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

-- Only a hash of the cookie token is stored.
CREATE TABLE sessions (
    token_hash TEXT    PRIMARY KEY,
    admin_id   INTEGER NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_admin_id ON sessions (admin_id);
CREATE INDEX sessions_last_seen ON sessions (last_seen);
CREATE INDEX sessions_created_at ON sessions (created_at);

CREATE TABLE login_failures (
    key TEXT    NOT NULL,
    at  INTEGER NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);

-- +goose Down
DROP TABLE login_failures;
DROP TABLE sessions;
DROP TABLE admins;
DROP TABLE movies_fts_pending;
DROP TABLE movies_fts;
DROP TABLE movies;
DROP TABLE clips_fts_pending;
DROP TABLE clips_fts;
DROP TABLE clip_counts;
DROP TABLE clips;
DROP TABLE meta;
