-- Merging the same title across sources (contract 10, issue 40).
--
-- movies.title_key is catalog.TitleKey of the name (folded, without
-- spaces and punctuation): what a collected record joins a movie by,
-- in place of the exact name and year. It is made in Go: search_fold
-- is set back so that the store's migrate refolds every row and fills
-- the key (sqlite/refold.go), as for a new fold.
--
-- sources: the fields a new record must share with a movie to join it
-- (catalog.Match, spelled "name,year"), whether its fields replace a
-- joined movie's, and its own least time between page requests (0:
-- the instance's --collect-interval).

-- +goose Up
ALTER TABLE movies ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
DROP INDEX movies_name_year;
CREATE INDEX movies_title_key ON movies (title_key) WHERE title_key <> '';
CREATE INDEX movies_douban_id ON movies (douban_id) WHERE douban_id <> '';
UPDATE meta SET search_fold = 0;
ALTER TABLE sources ADD COLUMN match_fields TEXT NOT NULL DEFAULT 'name,year';
ALTER TABLE sources ADD COLUMN preferred INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sources ADD COLUMN interval_ms INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE sources DROP COLUMN interval_ms;
ALTER TABLE sources DROP COLUMN preferred;
ALTER TABLE sources DROP COLUMN match_fields;
DROP INDEX movies_douban_id;
DROP INDEX movies_title_key;
CREATE INDEX movies_name_year ON movies (name, year);
ALTER TABLE movies DROP COLUMN title_key;
