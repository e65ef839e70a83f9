-- +goose Up
-- The MacCMS resource API (contract 6): stable type ids for category
-- names, each movie's type (its first category), and the last-change
-- order. Types are kept by triggers, like the counters, so that every
-- writer (import, seed, demo, a hand-written INSERT) keeps them right.

-- Every distinct category name, numbered when first seen; identity
-- values are never reused.
CREATE TABLE movie_types (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE
);

-- A movie's type is its first category, kept on the row as the name
-- (the key of movie_types) by a generated column: a row trigger that
-- looked up and wrote a type id made imports three times slower. NULL =
-- no category (type 0).
ALTER TABLE movies ADD COLUMN type_name text GENERATED ALWAYS AS (categories_json::jsonb ->> 0) STORED;

-- Existing movies: names numbered in the order of the movies (lowest id
-- first) and of their lists, as if they had been written one by one.
INSERT INTO movie_types (name)
    SELECT name FROM (
        SELECT DISTINCT ON (c.name) c.name, m.id, c.n
        FROM movies m, jsonb_array_elements_text(m.categories_json::jsonb) WITH ORDINALITY AS c (name, n)
        ORDER BY c.name, m.id, c.n
    ) first_seen ORDER BY id, n;

-- Collectors page "last change first"; the time then the id make the
-- order total. The type index serves t= in the same order. The old
-- index on updated_at alone is a prefix of the new one.
DROP INDEX movies_updated_at;
CREATE INDEX movies_changed ON movies (updated_at DESC, id DESC);
CREATE INDEX movies_type_changed ON movies (type_name, updated_at DESC, id DESC);

-- New names get their ids once per writing statement, from its
-- transition table, in the order of the rows' ids and of their lists.
-- Known names are skipped before the insert, so they use up no
-- identity values.
-- +goose StatementBegin
CREATE FUNCTION movie_types_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO movie_types (name)
        SELECT name FROM (
            SELECT DISTINCT ON (c.name) c.name, m.id, c.n
            FROM new_rows m, jsonb_array_elements_text(m.categories_json::jsonb) WITH ORDINALITY AS c (name, n)
            WHERE m.categories_json <> '[]' AND NOT EXISTS (SELECT 1 FROM movie_types t WHERE t.name = c.name)
            ORDER BY c.name, m.id, c.n
        ) first_seen ORDER BY id, n
        ON CONFLICT (name) DO NOTHING;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER movies_types_insert AFTER INSERT ON movies
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION movie_types_seen();
CREATE TRIGGER movies_types_update AFTER UPDATE ON movies
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION movie_types_seen();

-- +goose Down
DROP TRIGGER movies_types_update ON movies;
DROP TRIGGER movies_types_insert ON movies;
DROP FUNCTION movie_types_seen();
DROP INDEX movies_type_changed;
DROP INDEX movies_changed;
CREATE INDEX movies_updated_at ON movies (updated_at);
ALTER TABLE movies DROP COLUMN type_name;
DROP TABLE movie_types;
