-- A movie's play counts (contract 12): in all, and in the UTC day, ISO
-- week and month of hits_on, the UTC day (days since 1970-01-01) of its
-- last counted hit. Only the hit batches write them, adding to what is
-- stored (catalog.HitStore); a read serves the count of a period that
-- has ended as 0 (catalog.Hits.At).

-- +goose Up
ALTER TABLE movies ADD COLUMN hits bigint NOT NULL DEFAULT 0;
ALTER TABLE movies ADD COLUMN hits_day bigint NOT NULL DEFAULT 0;
ALTER TABLE movies ADD COLUMN hits_week bigint NOT NULL DEFAULT 0;
ALTER TABLE movies ADD COLUMN hits_month bigint NOT NULL DEFAULT 0;
ALTER TABLE movies ADD COLUMN hits_on bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE movies DROP COLUMN hits_on;
ALTER TABLE movies DROP COLUMN hits_month;
ALTER TABLE movies DROP COLUMN hits_week;
ALTER TABLE movies DROP COLUMN hits_day;
ALTER TABLE movies DROP COLUMN hits;
