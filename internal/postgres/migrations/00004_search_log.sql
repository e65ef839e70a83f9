-- Separate data versions for clips and movies (a clip write must not
-- throw away cached movie answers), and the search log: which ids
-- changed at which version, written by statement-level triggers in the
-- same transaction as every write, so that each instance's in-process
-- search index (internal/search) catches up with writes made by any
-- instance. The version bump locks the meta row until commit, so
-- versions become visible in commit order: a snapshot that sees version
-- v sees every log row up to v.

-- +goose Up
ALTER TABLE meta ADD COLUMN clip_version bigint NOT NULL DEFAULT 1,
                 ADD COLUMN movie_version bigint NOT NULL DEFAULT 1;

-- kind 1 = clips, 2 = movies; id 0 = the whole table changed (TRUNCATE).
-- Rows at or below search_log_pruned.through are gone, so an index older
-- than that rebuilds.
CREATE TABLE search_log (
    kind    smallint NOT NULL,
    version bigint   NOT NULL,
    id      bigint   NOT NULL
);
CREATE INDEX search_log_kind_version ON search_log (kind, version);
CREATE TABLE search_log_pruned (
    kind    smallint PRIMARY KEY,
    through bigint   NOT NULL
);
INSERT INTO search_log_pruned (kind, through) VALUES (1, 0), (2, 0);

-- +goose StatementBegin
CREATE FUNCTION search_logged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    k smallint;
    v bigint;
BEGIN
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
    ELSIF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
    END IF;
    IF TG_TABLE_NAME = 'clips' THEN
        k := 1;
        UPDATE meta SET clip_version = clip_version + 1 RETURNING clip_version INTO v;
    ELSE
        k := 2;
        UPDATE meta SET movie_version = movie_version + 1 RETURNING movie_version INTO v;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_log (kind, version, id) SELECT k, v, id FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO search_log (kind, version, id) SELECT k, v, id FROM old_rows;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO search_log (kind, version, id) SELECT k, v, id FROM new_rows
            UNION SELECT k, v, id FROM old_rows;
    ELSE -- TRUNCATE
        INSERT INTO search_log (kind, version, id) VALUES (k, v, 0);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER clips_logged_insert AFTER INSERT ON clips
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER clips_logged_update AFTER UPDATE ON clips
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER clips_logged_delete AFTER DELETE ON clips
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER clips_logged_truncate AFTER TRUNCATE ON clips
    FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER movies_logged_insert AFTER INSERT ON movies
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER movies_logged_update AFTER UPDATE ON movies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER movies_logged_delete AFTER DELETE ON movies
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_logged();
CREATE TRIGGER movies_logged_truncate AFTER TRUNCATE ON movies
    FOR EACH STATEMENT EXECUTE FUNCTION search_logged();

-- +goose Down
DROP TRIGGER movies_logged_truncate ON movies;
DROP TRIGGER movies_logged_delete ON movies;
DROP TRIGGER movies_logged_update ON movies;
DROP TRIGGER movies_logged_insert ON movies;
DROP TRIGGER clips_logged_truncate ON clips;
DROP TRIGGER clips_logged_delete ON clips;
DROP TRIGGER clips_logged_update ON clips;
DROP TRIGGER clips_logged_insert ON clips;
DROP FUNCTION search_logged();
DROP TABLE search_log_pruned;
DROP TABLE search_log;
ALTER TABLE meta DROP COLUMN movie_version, DROP COLUMN clip_version;
