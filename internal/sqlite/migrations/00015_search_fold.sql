-- The fold version of the stored search text (title_fold, name_fold):
-- catalog.SearchText under fold.Version. Rows written before this
-- migration hold fold 1 (NFC and case folding of the title only); the
-- store's migrate refolds every row in Go after the SQL migrations and
-- then records the version here (sqlite/refold.go).

-- +goose Up
ALTER TABLE meta ADD COLUMN search_fold INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE meta DROP COLUMN search_fold;
