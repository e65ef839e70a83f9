-- The console's language of each administrator (en, th, zh-Hans), as
-- chosen with the switcher; empty until one is chosen, and then the
-- browser's Accept-Language decides.

-- +goose Up
ALTER TABLE admins ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE admins DROP COLUMN language;
