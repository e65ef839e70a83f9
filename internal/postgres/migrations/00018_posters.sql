-- Mirrored posters (contract 13), as in internal/sqlite: the movies'
-- mirror addresses (written only by the mirror), its queue poster_jobs
-- (a job per poster URL without a copy yet) and the copies by the key of
-- their URL, poster_images.

-- +goose Up
ALTER TABLE movies ADD COLUMN poster1_mirror text NOT NULL DEFAULT '';
ALTER TABLE movies ADD COLUMN poster2_mirror text NOT NULL DEFAULT '';
CREATE TABLE poster_jobs (
    movie_id bigint   NOT NULL,
    slot     smallint NOT NULL,
    url      text     NOT NULL,
    due      bigint   NOT NULL DEFAULT 0,
    tries    integer  NOT NULL DEFAULT 0,
    PRIMARY KEY (movie_id, slot)
);
CREATE INDEX poster_jobs_due ON poster_jobs (due);
INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, 1, poster1_url FROM movies WHERE poster1_url <> '';
INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, 2, poster2_url FROM movies WHERE poster2_url <> '';
CREATE TABLE poster_images (
    key     text   PRIMARY KEY,
    url     text   NOT NULL,
    jpeg    bytea  NOT NULL,
    created bigint NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION posters_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM poster_jobs WHERE movie_id IN (SELECT id FROM old_rows);
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO poster_jobs (movie_id, slot, url)
            SELECT n.id, s.slot, CASE s.slot WHEN 1 THEN n.poster1_url ELSE n.poster2_url END
            FROM new_rows n CROSS JOIN (VALUES (1), (2)) AS s(slot)
            WHERE CASE s.slot WHEN 1 THEN n.poster1_url ELSE n.poster2_url END <> ''
            ORDER BY n.id, s.slot
            ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
    ELSE
        -- A poster whose URL changed: its job is replaced (or removed when
        -- the URL is now empty).
        DELETE FROM poster_jobs j USING old_rows o LEFT JOIN new_rows n ON n.id = o.id
            WHERE j.movie_id = o.id AND (n.id IS NULL
                OR (j.slot = 1 AND o.poster1_url IS DISTINCT FROM n.poster1_url)
                OR (j.slot = 2 AND o.poster2_url IS DISTINCT FROM n.poster2_url));
        INSERT INTO poster_jobs (movie_id, slot, url)
            SELECT n.id, s.slot, CASE s.slot WHEN 1 THEN n.poster1_url ELSE n.poster2_url END
            FROM new_rows n CROSS JOIN (VALUES (1), (2)) AS s(slot) LEFT JOIN old_rows o ON o.id = n.id
            WHERE CASE s.slot WHEN 1 THEN n.poster1_url ELSE n.poster2_url END <> ''
              AND (o.id IS NULL OR CASE s.slot WHEN 1 THEN o.poster1_url ELSE o.poster2_url END
                  IS DISTINCT FROM CASE s.slot WHEN 1 THEN n.poster1_url ELSE n.poster2_url END)
            ORDER BY n.id, s.slot
            ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER movies_posters_insert AFTER INSERT ON movies
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION posters_queued();
CREATE TRIGGER movies_posters_update AFTER UPDATE ON movies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION posters_queued();
CREATE TRIGGER movies_posters_delete AFTER DELETE ON movies
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION posters_queued();

-- +goose Down
DROP TRIGGER movies_posters_delete ON movies;
DROP TRIGGER movies_posters_update ON movies;
DROP TRIGGER movies_posters_insert ON movies;
DROP FUNCTION posters_queued();
DROP TABLE poster_images;
DROP TABLE poster_jobs;
ALTER TABLE movies DROP COLUMN poster2_mirror;
ALTER TABLE movies DROP COLUMN poster1_mirror;
