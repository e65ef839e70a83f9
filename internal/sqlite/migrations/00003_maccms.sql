-- The MacCMS resource API (contract 6): stable type ids for category
-- names, each movie's type (its first category), and the last-change
-- order. Types are kept by triggers, like the totals, so that every
-- writer (import, seed, demo, a hand-written INSERT) keeps them right.

-- +goose Up

-- Every distinct category name, numbered when first seen. AUTOINCREMENT
-- so that an id is never reused, even if rows were ever deleted.
CREATE TABLE movie_types (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT    NOT NULL UNIQUE
);

-- A movie's type is its first category, kept on the row as the name
-- (the key of movie_types) by a generated column: a trigger that wrote a
-- type id would have to write every inserted row a second time, which
-- made imports several times slower. NULL = no category (type 0).
ALTER TABLE movies ADD COLUMN type_name TEXT GENERATED ALWAYS AS
    (CASE WHEN json_valid(categories_json) THEN categories_json ->> 0 END) VIRTUAL;

-- Existing movies: names numbered in the order of the movies (lowest id
-- first) and of their lists, as if they had been written one by one.
-- (Each name once: with AUTOINCREMENT an ignored row still uses an id.)
INSERT INTO movie_types (name)
    SELECT c.value FROM movies m, json_each(m.categories_json) c
    WHERE json_valid(m.categories_json)
    GROUP BY c.value ORDER BY min(printf('%020d %010d', m.id, c.key));

-- Collectors page "last change first"; the time then the id make the
-- order total. The type index serves t= in the same order. The old
-- index on updated_at alone is a prefix of the new one.
DROP INDEX movies_updated_at;
CREATE INDEX movies_changed ON movies (updated_at DESC, id DESC);
CREATE INDEX movies_type_changed ON movies (type_name, updated_at DESC, id DESC);

-- New names get their ids as rows arrive. Known names are skipped before
-- the insert: an ignored insert would still use up an id.
-- +goose StatementBegin
CREATE TRIGGER movies_ai_type AFTER INSERT ON movies
WHEN new.categories_json <> '[]' BEGIN
    INSERT OR IGNORE INTO movie_types (name)
        SELECT value FROM json_each(CASE WHEN json_valid(new.categories_json)
            THEN new.categories_json ELSE '[]' END)
        WHERE NOT EXISTS (SELECT 1 FROM movie_types WHERE name = value) ORDER BY key;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER movies_au_type AFTER UPDATE OF categories_json ON movies
WHEN old.categories_json IS NOT new.categories_json AND new.categories_json <> '[]' BEGIN
    INSERT OR IGNORE INTO movie_types (name)
        SELECT value FROM json_each(CASE WHEN json_valid(new.categories_json)
            THEN new.categories_json ELSE '[]' END)
        WHERE NOT EXISTS (SELECT 1 FROM movie_types WHERE name = value) ORDER BY key;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_au_type;
DROP TRIGGER movies_ai_type;
DROP INDEX movies_type_changed;
DROP INDEX movies_changed;
CREATE INDEX movies_updated_at ON movies (updated_at);
ALTER TABLE movies DROP COLUMN type_name;
DROP TABLE movie_types;
