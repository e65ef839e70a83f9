-- A movie's running time in whole minutes, 0 when unknown.

-- +goose Up
ALTER TABLE movies ADD COLUMN runtime_minutes integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE movies DROP COLUMN runtime_minutes;
