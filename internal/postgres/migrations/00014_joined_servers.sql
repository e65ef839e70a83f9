-- +goose Up
-- A joined record remembers the names of the servers it put in the
-- movie (a JSON array), as in internal/sqlite, so that its next run
-- replaces those and never a hand-made server whose name looks like its
-- own ("SOURCE: NAME"). '': not known, read as every "SOURCE: ..." server.
ALTER TABLE source_movies ADD COLUMN servers text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE source_movies DROP COLUMN servers;
