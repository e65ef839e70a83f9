-- A hit batch changes only the movies' play counts: its log rows say
-- so (hits_only), and the index then reads only the counts of those
-- movies and updates its hits orders in place, instead of reading and
-- indexing whole documents (SearchUpdate.Hits). The trigger runs per
-- statement and cannot tell which columns changed, so the writer says
-- it: AddHits, which writes the counts and nothing else, sets
-- catalog.hits_only for its transaction. Every other write logs whole
-- changes, as before.

-- +goose Up
ALTER TABLE search_log ADD COLUMN hits_only boolean NOT NULL DEFAULT false;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION search_logged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    k smallint;
    v bigint;
    h boolean;
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
        h := k = 2 AND coalesce(current_setting('catalog.hits_only', true), '') = 'on';
        INSERT INTO search_log (kind, version, id, hits_only) SELECT k, v, id, h FROM new_rows
            UNION SELECT k, v, id, h FROM old_rows;
    ELSE -- TRUNCATE
        INSERT INTO search_log (kind, version, id) VALUES (k, v, 0);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION search_logged() RETURNS trigger LANGUAGE plpgsql AS $$
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
ALTER TABLE search_log DROP COLUMN hits_only;
