-- Write only what changed (contract 10): each collected record keeps the
-- content hash of what its source sent the last time it was written
-- (every mapped field, episodes included), and a run counts the records
-- it skipped because they had not changed. '': not known (a link stored
-- before), so the next run writes the record once.

-- +goose Up
ALTER TABLE source_movies ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE source_runs ADD COLUMN unchanged INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE source_runs DROP COLUMN unchanged;
ALTER TABLE source_movies DROP COLUMN content_hash;
