-- Link health (contract 13). movies.link_health is what the prober
-- found for each server (catalog.ServerHealth as JSON, '' before the
-- first check), read with the episodes and written only by the prober.
-- link_checks is the prober's queue: every movie, by when it is due
-- (Unix seconds; 0: never checked or its episodes changed; -1: a player
-- reported a failure). dead_links lists the dead servers, for the
-- console's page and the metrics, without reading every movie.

-- +goose Up
ALTER TABLE movies ADD COLUMN link_health TEXT NOT NULL DEFAULT '';
CREATE TABLE link_checks (
    movie_id INTEGER PRIMARY KEY,
    due      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX link_checks_due ON link_checks (due);
INSERT INTO link_checks (movie_id, due) SELECT id, 0 FROM movies;
CREATE TABLE dead_links (
    movie_id   INTEGER NOT NULL,
    server     TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    PRIMARY KEY (movie_id, server)
);
CREATE INDEX dead_links_source ON dead_links (source, movie_id);

-- +goose StatementBegin
CREATE TRIGGER movies_ai_links AFTER INSERT ON movies BEGIN
    INSERT INTO link_checks (movie_id, due) VALUES (new.id, 0)
        ON CONFLICT (movie_id) DO UPDATE SET due = 0;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_ad_links AFTER DELETE ON movies BEGIN
    DELETE FROM link_checks WHERE movie_id = old.id;
    DELETE FROM dead_links WHERE movie_id = old.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au_links AFTER UPDATE OF id, episodes ON movies
WHEN old.episodes IS NOT new.episodes OR old.id <> new.id BEGIN
    DELETE FROM link_checks WHERE movie_id = old.id;
    INSERT INTO link_checks (movie_id, due) VALUES (new.id, 0)
        ON CONFLICT (movie_id) DO UPDATE SET due = 0;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_au_links;
DROP TRIGGER movies_ad_links;
DROP TRIGGER movies_ai_links;
DROP TABLE dead_links;
DROP TABLE link_checks;
ALTER TABLE movies DROP COLUMN link_health;
