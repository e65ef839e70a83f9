-- A joined record remembers the names of the servers it put in the
-- movie (a JSON array), so that its next run replaces those and never a
-- hand-made server whose name looks like its own ("SOURCE: NAME"). '':
-- not known (a link stored before), read as every "SOURCE: ..." server.

-- +goose Up
ALTER TABLE source_movies ADD COLUMN servers TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE source_movies DROP COLUMN servers;
