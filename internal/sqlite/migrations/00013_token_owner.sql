-- Tokens belong to the administrator who made them (contract 8):
-- deleting an administrator revokes the tokens they made in the
-- console. 0: made with `catalog token create`, by the operator, or
-- before tokens had an owner. Not a foreign key: a revoked token stays
-- listed after its administrator is gone.

-- +goose Up
ALTER TABLE api_tokens ADD COLUMN admin_id INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE api_tokens DROP COLUMN admin_id;
