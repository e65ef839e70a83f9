-- A movie's score ("0.0" to "10.0", or "") and Douban id (digits, or
-- ""), contract 12: served as they are stored.

-- +goose Up
ALTER TABLE movies ADD COLUMN score TEXT NOT NULL DEFAULT '';
ALTER TABLE movies ADD COLUMN douban_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE movies DROP COLUMN douban_id;
ALTER TABLE movies DROP COLUMN score;
