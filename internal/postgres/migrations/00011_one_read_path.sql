-- One read path: the in-process index (internal/search) answers every
-- list, its search, its filters, its orders and its totals, so the
-- database's own search (the pg_trgm indexes) and the indexes that only
-- served lists (the platform's id order, the MacCMS change orders) go.
-- The search log already hears of every update (migration 00004); the
-- trigger-kept counts stay, the CLI counts with them. The pg_trgm
-- extension is left installed: other databases of the cluster may use
-- it, and nothing here does. A database made since issue 37 never had
-- the trigram indexes (00001), hence IF EXISTS.

-- +goose Up
DROP INDEX IF EXISTS clips_title_fold_trgm;
DROP INDEX IF EXISTS movies_name_fold_trgm;
DROP INDEX clips_platform_id;
DROP INDEX movies_changed;
DROP INDEX movies_type_changed;

-- +goose Down
CREATE INDEX movies_type_changed ON movies (type_name, updated_at DESC, id DESC);
CREATE INDEX movies_changed ON movies (updated_at DESC, id DESC);
CREATE INDEX clips_platform_id ON clips (platform, id DESC);
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX movies_name_fold_trgm ON movies USING gin (name_fold gin_trgm_ops);
CREATE INDEX clips_title_fold_trgm ON clips USING gin (title_fold gin_trgm_ops);
