-- Separate data versions for clips and movies (a clip write must not
-- throw away cached movie answers), and the search log: which ids
-- changed at which version, written by triggers in the same transaction
-- as every write, so that each instance's in-process search index
-- (internal/search) catches up with writes made by any process.

-- +goose Up
ALTER TABLE meta ADD COLUMN clip_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE meta ADD COLUMN movie_version INTEGER NOT NULL DEFAULT 1;

-- kind 1 = clips, 2 = movies. A reader applies every row above the
-- version its index is at; rows at or below search_log_pruned.through
-- are gone, so an index older than that rebuilds.
CREATE TABLE search_log (
    kind    INTEGER NOT NULL,
    version INTEGER NOT NULL,
    id      INTEGER NOT NULL
);
CREATE INDEX search_log_kind_version ON search_log (kind, version);
CREATE TABLE search_log_pruned (
    kind    INTEGER PRIMARY KEY,
    through INTEGER NOT NULL
);
INSERT INTO search_log_pruned (kind, through) VALUES (1, 0), (2, 0);

-- +goose StatementBegin
CREATE TRIGGER clips_ai_log AFTER INSERT ON clips BEGIN
    UPDATE meta SET clip_version = clip_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, new.id FROM meta WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER clips_ad_log AFTER DELETE ON clips BEGIN
    UPDATE meta SET clip_version = clip_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, old.id FROM meta WHERE id = 1;
END;
-- +goose StatementEnd

-- Every update changes the version (cached answers show every field);
-- only a changed title, platform or id concerns the index.
-- +goose StatementBegin
CREATE TRIGGER clips_au_log AFTER UPDATE ON clips BEGIN
    UPDATE meta SET clip_version = clip_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, new.id FROM meta
        WHERE id = 1 AND (old.title_fold IS NOT new.title_fold OR old.platform IS NOT new.platform OR old.id <> new.id);
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ai_log AFTER INSERT ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ad_log AFTER DELETE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_au_log;
DROP TRIGGER movies_ad_log;
DROP TRIGGER movies_ai_log;
DROP TRIGGER clips_au_log;
DROP TRIGGER clips_ad_log;
DROP TRIGGER clips_ai_log;
DROP TABLE search_log_pruned;
DROP TABLE search_log;
ALTER TABLE meta DROP COLUMN movie_version;
ALTER TABLE meta DROP COLUMN clip_version;
