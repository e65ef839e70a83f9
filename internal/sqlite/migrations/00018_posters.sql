-- Mirrored posters (contract 13). poster1_mirror and poster2_mirror are
-- the served addresses of the posters' copies ('' when there is none),
-- written only by the mirror. poster_jobs is its queue: a job for each
-- poster URL without a copy yet (due in Unix seconds; tries: failed
-- fetches). poster_images holds the copies, by the key of their URL, so
-- that a URL several movies share is fetched and stored once.

-- +goose Up
ALTER TABLE movies ADD COLUMN poster1_mirror TEXT NOT NULL DEFAULT '';
ALTER TABLE movies ADD COLUMN poster2_mirror TEXT NOT NULL DEFAULT '';
CREATE TABLE poster_jobs (
    movie_id INTEGER NOT NULL,
    slot     INTEGER NOT NULL,
    url      TEXT    NOT NULL,
    due      INTEGER NOT NULL DEFAULT 0,
    tries    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (movie_id, slot)
);
CREATE INDEX poster_jobs_due ON poster_jobs (due);
INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, 1, poster1_url FROM movies WHERE poster1_url <> '';
INSERT INTO poster_jobs (movie_id, slot, url) SELECT id, 2, poster2_url FROM movies WHERE poster2_url <> '';
CREATE TABLE poster_images (
    key     TEXT    PRIMARY KEY,
    url     TEXT    NOT NULL,
    jpeg    BLOB    NOT NULL,
    created INTEGER NOT NULL
);

-- +goose StatementBegin
CREATE TRIGGER movies_ai_posters AFTER INSERT ON movies BEGIN
    INSERT INTO poster_jobs (movie_id, slot, url) SELECT new.id, 1, new.poster1_url WHERE new.poster1_url <> ''
        ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
    INSERT INTO poster_jobs (movie_id, slot, url) SELECT new.id, 2, new.poster2_url WHERE new.poster2_url <> ''
        ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au_posters AFTER UPDATE OF id, poster1_url, poster2_url ON movies
WHEN old.poster1_url IS NOT new.poster1_url OR old.poster2_url IS NOT new.poster2_url OR old.id <> new.id BEGIN
    DELETE FROM poster_jobs WHERE movie_id = old.id AND (old.id <> new.id
        OR (slot = 1 AND old.poster1_url IS NOT new.poster1_url) OR (slot = 2 AND old.poster2_url IS NOT new.poster2_url));
    INSERT INTO poster_jobs (movie_id, slot, url) SELECT new.id, 1, new.poster1_url
        WHERE new.poster1_url <> '' AND (old.poster1_url IS NOT new.poster1_url OR old.id <> new.id)
        ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
    INSERT INTO poster_jobs (movie_id, slot, url) SELECT new.id, 2, new.poster2_url
        WHERE new.poster2_url <> '' AND (old.poster2_url IS NOT new.poster2_url OR old.id <> new.id)
        ON CONFLICT (movie_id, slot) DO UPDATE SET url = excluded.url, due = 0, tries = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ad_posters AFTER DELETE ON movies BEGIN
    DELETE FROM poster_jobs WHERE movie_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_ad_posters;
DROP TRIGGER movies_au_posters;
DROP TRIGGER movies_ai_posters;
DROP TABLE poster_images;
DROP TABLE poster_jobs;
ALTER TABLE movies DROP COLUMN poster2_mirror;
ALTER TABLE movies DROP COLUMN poster1_mirror;
