-- +goose Up
-- The MacCMS resource API (contract 6): stable type ids for category
-- names, each movie's type (its first category), and the last-change
-- order. Types are kept by a trigger, like the counters, so that every
-- writer (import, seed, demo, a hand-written INSERT) keeps them right.

-- Every distinct category name, numbered when first seen; identity
-- values are never reused.
CREATE TABLE movie_types (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE
);

-- 0 = the movie has no category.
ALTER TABLE movies ADD COLUMN type_id bigint NOT NULL DEFAULT 0;

-- Existing movies: names numbered in the order of the movies (lowest id
-- first) and of their lists, as if they had been written one by one.
INSERT INTO movie_types (name)
    SELECT name FROM (
        SELECT DISTINCT ON (c.name) c.name, m.id, c.n
        FROM movies m, jsonb_array_elements_text(m.categories_json::jsonb) WITH ORDINALITY AS c (name, n)
        ORDER BY c.name, m.id, c.n
    ) first_seen ORDER BY id, n;
UPDATE movies m SET type_id = t.id FROM movie_types t
WHERE m.categories_json <> '[]' AND t.name = m.categories_json::jsonb ->> 0;

-- Collectors page "last change first"; the time then the id make the
-- order total. The type index serves t= in the same order. The old
-- index on updated_at alone is a prefix of the new one.
DROP INDEX movies_updated_at;
CREATE INDEX movies_changed ON movies (updated_at DESC, id DESC);
CREATE INDEX movies_type_changed ON movies (type_id, updated_at DESC, id DESC);

-- A row trigger sets the type before the row is written, so no second
-- write of the row is needed. Names already known (nearly all of them
-- in an import) cost an index probe and no insert.
-- +goose StatementBegin
CREATE FUNCTION movies_typed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.categories_json IS NOT DISTINCT FROM OLD.categories_json THEN
        NEW.type_id := OLD.type_id;
        RETURN NEW;
    END IF;
    IF NEW.categories_json IS NULL OR NEW.categories_json = '[]' OR NEW.categories_json = '' THEN
        NEW.type_id := 0;
        RETURN NEW;
    END IF;
    INSERT INTO movie_types (name)
        SELECT c.name FROM jsonb_array_elements_text(NEW.categories_json::jsonb) WITH ORDINALITY AS c (name, n)
        WHERE NOT EXISTS (SELECT 1 FROM movie_types t WHERE t.name = c.name)
        ORDER BY c.n
        ON CONFLICT (name) DO NOTHING;
    NEW.type_id := coalesce((SELECT t.id FROM movie_types t WHERE t.name = NEW.categories_json::jsonb ->> 0), 0);
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER movies_typed BEFORE INSERT OR UPDATE ON movies
    FOR EACH ROW EXECUTE FUNCTION movies_typed();

-- +goose Down
DROP TRIGGER movies_typed ON movies;
DROP FUNCTION movies_typed();
DROP INDEX movies_type_changed;
DROP INDEX movies_changed;
CREATE INDEX movies_updated_at ON movies (updated_at);
ALTER TABLE movies DROP COLUMN type_id;
DROP TABLE movie_types;
