-- +goose Up
-- Tokens belong to the administrator who made them (contract 8), as in
-- internal/sqlite: deleting an administrator revokes the tokens they
-- made in the console. 0: made with `catalog token create`, by the
-- operator, or before tokens had an owner.
ALTER TABLE api_tokens ADD COLUMN admin_id bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE api_tokens DROP COLUMN admin_id;
