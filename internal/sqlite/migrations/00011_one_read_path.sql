-- One read path: the in-process index (internal/search) answers every
-- list, its search, its filters, its orders and its totals. So the
-- database's own search (FTS5 tables, their pending lists and the
-- triggers that fed them) and the indexes that only served lists (the
-- platform's id order, the MacCMS change orders) go, and the search log
-- hears of every change to what the lists filter and order on: the
-- name, the last change time, the type (the first category), the year
-- and the play groups. The trigger-kept counts stay: the CLI counts
-- with them.

-- +goose Up
DROP TRIGGER clips_au_title;
DROP TRIGGER movies_au_name;
DROP TRIGGER clips_ai;
DROP TRIGGER clips_ad;
DROP TRIGGER movies_ai;
DROP TRIGGER movies_ad;
DROP TABLE clips_fts;
DROP TABLE movies_fts;
DROP TABLE clips_fts_pending;
DROP TABLE movies_fts_pending;
DROP INDEX clips_platform_id;
DROP INDEX movies_changed;
DROP INDEX movies_type_changed;

-- +goose StatementBegin
CREATE TRIGGER clips_ai AFTER INSERT ON clips BEGIN
    INSERT INTO clip_counts (platform, n) VALUES (new.platform, 1)
        ON CONFLICT (platform) DO UPDATE SET n = n + 1;
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_ad AFTER DELETE ON clips BEGIN
    UPDATE clip_counts SET n = n - 1 WHERE platform = old.platform;
    UPDATE meta SET data_version = data_version + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ai AFTER INSERT ON movies BEGIN
    UPDATE meta SET data_version = data_version + 1, movie_count = movie_count + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ad AFTER DELETE ON movies BEGIN
    UPDATE meta SET data_version = data_version + 1, movie_count = movie_count - 1 WHERE id = 1;
END;
-- +goose StatementEnd

DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id
            OR old.updated_at IS NOT new.updated_at OR old.categories_json IS NOT new.categories_json
            OR old.year IS NOT new.year OR old.play_kinds IS NOT new.play_kinds);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

DROP TRIGGER clips_ai;
DROP TRIGGER clips_ad;
DROP TRIGGER movies_ai;
DROP TRIGGER movies_ad;
CREATE INDEX clips_platform_id ON clips (platform, id);
CREATE INDEX movies_changed ON movies (updated_at DESC, id DESC);
CREATE INDEX movies_type_changed ON movies (type_name, updated_at DESC, id DESC);
CREATE VIRTUAL TABLE clips_fts USING fts5 (
    title_fold, content = 'clips', content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1', detail = 'full'
);
CREATE VIRTUAL TABLE movies_fts USING fts5 (
    name_fold, content = 'movies', content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1', detail = 'full'
);
INSERT INTO clips_fts (clips_fts) VALUES ('rebuild');
INSERT INTO movies_fts (movies_fts) VALUES ('rebuild');
CREATE TABLE clips_fts_pending (id INTEGER PRIMARY KEY);
CREATE TABLE movies_fts_pending (id INTEGER PRIMARY KEY);

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
CREATE TRIGGER clips_au_title AFTER UPDATE OF title_fold ON clips
WHEN old.title_fold IS NOT new.title_fold
 AND NOT EXISTS (SELECT 1 FROM clips_fts_pending WHERE id = old.id) BEGIN
    INSERT INTO clips_fts (clips_fts, rowid, title_fold) VALUES ('delete', old.id, old.title_fold);
    INSERT INTO clips_fts (rowid, title_fold) VALUES (new.id, new.title_fold);
END;
-- +goose StatementEnd

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
CREATE TRIGGER movies_au_name AFTER UPDATE OF name_fold ON movies
WHEN old.name_fold IS NOT new.name_fold
 AND NOT EXISTS (SELECT 1 FROM movies_fts_pending WHERE id = old.id) BEGIN
    INSERT INTO movies_fts (movies_fts, rowid, name_fold) VALUES ('delete', old.id, old.name_fold);
    INSERT INTO movies_fts (rowid, name_fold) VALUES (new.id, new.name_fold);
END;
-- +goose StatementEnd
